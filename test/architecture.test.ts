/**
 * The shape of the code, checked: the adapters (server/, cli/) reach the engine only through its
 * public faces, the client only through the protocol, and the extension's activation globs are the
 * engine's default globs. Imports are read with the TypeScript parser (static imports, re-exports,
 * `import()` and `require()` with a literal), so a comment or a string that looks like one does not count.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import { BUILTIN_DIALECT_COUNT, dialectModules } from '../shared/dialects';
import { RULES } from '../shared/rules/registry';
import { importedFile, importsOf, ROOT, sourceFiles, target } from './support/sources';

/** The imports of `files` that reach into `shared/` anywhere but the allowed modules. */
function importsPast(
  files: string[],
  allowed: string[],
  read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8'),
) {
  const bad: string[] = [];
  for (const file of files) {
    for (const spec of importsOf(read(file), file)) {
      const t = target(file, spec);
      if (t === undefined || !(t === 'shared' || t.startsWith('shared/'))) continue;
      const normalized = t === 'shared' ? 'shared/index' : t === 'shared/node' ? 'shared/node/index' : t;
      if (!allowed.includes(normalized)) bad.push(`${file} imports ${spec}`);
    }
  }
  return bad;
}

describe('architecture: one public face', () => {
  it('server/ and cli/ import the engine only through shared/index.ts and shared/node/index.ts', () => {
    const files = [...sourceFiles('server'), ...sourceFiles('cli')];
    assert.ok(files.length > 30, `found ${files.length} files`);
    assert.deepStrictEqual(importsPast(files, ['shared/index', 'shared/node/index']), []);
  });

  it('client/ imports only the protocol', () => {
    const files = sourceFiles('client');
    assert.ok(files.length > 3);
    assert.deepStrictEqual(importsPast(files, ['shared/protocol']), []);
  });

  it('the check can fail: every kind of import past the faces is found, comments and strings are not', () => {
    const text = [
      "import { a } from '../shared/engine';",
      "export { b } from '../shared/features/hover';",
      "import type { C } from '../shared/types';",
      "const d = require('../shared/node/read');",
      "const e = import('../shared/text/yaml');",
      "import f = require('../shared/fixes/apply');",
      "import { ok } from '../shared';",
      "import { ok2 } from '../shared/node';",
      "// import { x } from '../shared/engine';",
      'const s = "from \'../shared/engine\'";',
    ].join('\n');
    const bad = importsPast(['server/x.ts'], ['shared/index', 'shared/node/index'], () => text);
    assert.deepStrictEqual(bad, [
      'server/x.ts imports ../shared/engine',
      'server/x.ts imports ../shared/features/hover',
      'server/x.ts imports ../shared/types',
      'server/x.ts imports ../shared/node/read',
      'server/x.ts imports ../shared/text/yaml',
      'server/x.ts imports ../shared/fixes/apply',
    ]);
  });

  it("the extension's activation globs are the engine's default globs and the configuration file", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const globs = (pkg.activationEvents as string[])
      .filter((e) => e.startsWith('workspaceContains:'))
      .map((e) => e.slice('workspaceContains:'.length));
    assert.deepStrictEqual(
      [...globs].sort(),
      [...dialectModules().flatMap((m) => m.files.defaultGlobs), '**/.subagents.yaml'].sort(),
    );
  });

  it("the definition languages take the Markdown and YAML activation globs (JSON Experts stay json), and only the definitions' grammar scopes", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const globs = (pkg.activationEvents as string[])
      .filter((e) => e.startsWith('workspaceContains:'))
      .map((e) => e.slice('workspaceContains:'.length))
      .filter((g) => !g.endsWith('/.subagents.yaml'));
    const languages = pkg.contributes.languages as { id: string; filenamePatterns?: string[] }[];
    const patternsOf = (id: string) => languages.find((l) => l.id === id)?.filenamePatterns ?? [];
    assert.deepStrictEqual(
      patternsOf('subagents-markdown'),
      globs.filter((g) => g.endsWith('.md')),
    );
    assert.deepStrictEqual(
      patternsOf('subagents-yaml'),
      globs.filter((g) => /\.ya?ml$/.test(g)),
    );
    assert.ok(globs.filter((g) => g.endsWith('.json')).length > 0, 'JSON definitions keep the json language');
    const defaults = pkg.contributes.configurationDefaults as Record<string, Record<string, unknown>>;
    for (const id of ['subagents-markdown', 'subagents-yaml'])
      assert.deepStrictEqual(defaults[`[${id}]`]['editor.quickSuggestions'], {
        other: 'on',
        comments: 'off',
        strings: 'on',
      });
    assert.ok(
      !Object.keys(defaults).some((k) => k === '[markdown]' || k === '[yaml]'),
      'other Markdown and YAML untouched',
    );
  });

  it("the editor setting subagents.rules takes the rule groups of the registry's modules", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const pattern: string = pkg.contributes.configuration.properties['subagents.rules'].propertyNames.pattern;
    const groups = /^\^\(([^)]*)\)\//.exec(pattern)?.[1].split('|');
    const expected = [...new Set(RULES.map((r) => r.group))];
    assert.deepStrictEqual(groups, expected);
  });
});

/**
 * The engine's layers, lowest first. A module imports from its own layer or below, never from
 * above (type-only imports count, as in test/cycles.test.ts): what rules use is below the
 * dialects, what orchestrates them above. Every module of shared/ is in exactly one layer.
 */
const LAYERS: { name: string; why: string; files: RegExp[] }[] = [
  {
    name: 'basics',
    why: 'text and trees, results, the protocol, the rule-id vocabulary, schema validation, the memo registry',
    files: [
      /^shared\/(basics|results|protocol|severity|diagnostics-cap|host|memos)\.ts$/,
      /^shared\/text\//,
      /^shared\/rules\/ids\.ts$/,
      /^shared\/schema\//,
    ],
  },
  {
    name: 'vocabularies',
    why: 'the configuration shapes, the catalog, key-doc shapes, path helpers',
    files: [
      /^shared\/config\/types\.ts$/,
      /^shared\/catalog\/catalog\.ts$/,
      /^shared\/docs\/key-doc\.ts$/,
      /^shared\/files\.ts$/,
    ],
  },
  {
    name: 'kits',
    why: 'what the dialects use: the module interface, rule and fix building blocks, editor kits',
    files: [
      /^shared\/types\.ts$/,
      /^shared\/dialects\/(module|common|verdict)\.ts$/,
      /^shared\/fixes\/(plans|edits)\.ts$/,
      /^shared\/features\/kit\//,
    ],
  },
  { name: 'dialects', why: 'one folder per runtime', files: [/^shared\/dialects\/[^/]+\//] },
  { name: 'registry', why: 'the list of dialect modules', files: [/^shared\/dialects\/index\.ts$/] },
  {
    name: 'engine',
    why: 'analyze, recognition, the rule and fix registries, Fix all, the configuration reader, the name index',
    files: [
      /^shared\/(engine|recognition)\.ts$/,
      /^shared\/rules\//,
      /^shared\/config\//,
      /^shared\/catalog\//,
      /^shared\/fixes\//,
      /^shared\/workspace\//,
    ],
  },
  {
    name: 'features',
    why: 'the editor features and their Markdown',
    files: [/^shared\/features\//, /^shared\/docs\//],
  },
  { name: 'faces', why: 'the public faces, and Node-only helpers', files: [/^shared\/index\.ts$/, /^shared\/node\//] },
];

const layerOf = (file: string) => LAYERS.findIndex((l) => l.files.some((re) => re.test(file)));

/** Each import that goes to a higher layer, or into a dialect's folder from outside it (only the registry lists them). */
function layerViolations(files: string[], read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8')): string[] {
  const bad: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    if (from < 0) {
      bad.push(`${file} is in no layer`);
      continue;
    }
    for (const spec of importsOf(read(file), file)) {
      const to = importedFile(file, spec);
      if (to === undefined || !to.startsWith('shared/')) continue;
      if (layerOf(to) > from) bad.push(`${file} (${LAYERS[from]?.name}) imports ${to} (${LAYERS[layerOf(to)].name})`);
      const folder = /^shared\/dialects\/[^/]+\//.exec(to)?.[0];
      if (folder && !file.startsWith(folder) && file !== 'shared/dialects/index.ts')
        bad.push(`${file} reaches into ${folder}`);
    }
  }
  return bad;
}

describe('architecture: layers', () => {
  it('no module of shared/ imports one from a higher layer, and only the registry reaches into a dialect', () => {
    const files = sourceFiles('shared');
    assert.ok(files.length > 100, `found ${files.length} files`);
    assert.deepStrictEqual(layerViolations(files), []);
  });

  it('the check can fail: an upward import (type-only too), a module in no layer, a reach into a dialect', () => {
    const sources: Record<string, string> = {
      'shared/results.ts': "import type { RuleId } from './rules/registry';",
      'shared/workspace/x.ts':
        "import { hover } from '../features/hover';\nimport { y } from '../dialects/polytoken/tools';",
      'shared/elsewhere.ts': "import { a } from './basics';",
      'shared/dialects/index.ts': "import { polytoken } from './polytoken';",
    };
    assert.deepStrictEqual(
      layerViolations(Object.keys(sources), (f) => sources[f]),
      [
        'shared/results.ts (basics) imports shared/rules/registry.ts (engine)',
        'shared/workspace/x.ts (engine) imports shared/features/hover.ts (features)',
        'shared/workspace/x.ts reaches into shared/dialects/polytoken/',
        'shared/elsewhere.ts is in no layer',
      ],
    );
  });
});

/**
 * Files outside the dialect folders that may name a dialect, each with its reason. Everything
 * else reaches a runtime through its module (`DialectModule`), so a new one touches none of them.
 */
const MAY_NAME_A_DIALECT: Record<string, string> = {
  'shared/schema/validators.generated.ts':
    'generated by scripts/gen-validators.mjs from schemas/: its validators are named after the schema files and check the configuration keys the modules compose',
  'server/configuration.ts':
    'reads the editor setting subagents.polytoken.globalDir (a package.json contribution) into the global folder option',
  'client/extension.ts': 'hands that setting to the server in its initialization options',
};

/**
 * Where a source text names a dialect: a string literal (or template without substitutions)
 * equal to a built-in dialect id, or a property name equal to one (`config.polytoken`,
 * `{ profy: … }`); comments and other text do not count.
 */
function dialectNames(text: string, ids: readonly string[], fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node) => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && ids.includes(node.text))
      at(node, `'${node.text}'`);
    const name =
      ts.isPropertyAccessExpression(node) || ts.isPropertyAssignment(node) || ts.isPropertySignature(node)
        ? node.name
        : ts.isShorthandPropertyAssignment(node)
          ? node.name
          : undefined;
    if (name && ts.isIdentifier(name) && ids.includes(name.text)) at(name, `.${name.text}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('architecture: no dialect names outside the dialect folders', () => {
  const ids = dialectModules()
    .slice(0, BUILTIN_DIALECT_COUNT)
    .map((m) => m.id);
  const files = ['shared', 'server', 'cli', 'client']
    .flatMap(sourceFiles)
    .filter((f) => !/^shared\/dialects\/[^/]+\//.test(f));

  it(`no product file names one (${Object.keys(MAY_NAME_A_DIALECT).length} files allowed, each for a reason)`, () => {
    assert.ok(Object.keys(MAY_NAME_A_DIALECT).length <= 3);
    assert.ok(files.length > 100, `found ${files.length} files`);
    const named: string[] = [];
    for (const file of files) {
      if (Object.prototype.hasOwnProperty.call(MAY_NAME_A_DIALECT, file)) continue;
      for (const hit of dialectNames(fs.readFileSync(path.join(ROOT, file), 'utf8'), ids, file)) named.push(hit);
    }
    assert.deepStrictEqual(named, []);
  });

  it('each allowed file does name one (else it leaves the list)', () => {
    for (const file of Object.keys(MAY_NAME_A_DIALECT))
      assert.ok(dialectNames(fs.readFileSync(path.join(ROOT, file), 'utf8'), ids, file).length > 0, file);
  });

  it('the check can fail: literals, comparisons and property names count; comments and other text do not', () => {
    const text = [
      "if (kind === 'polytoken') run();",
      'switch (d) { case `profy`: break; }',
      'const x = config.picasso;',
      'const y = { polytoken: 1 };',
      "// 'polytoken' in a comment",
      "const z = 'polytoken/shadowed';",
      'const w = `A ${"Profy"} Expert`;',
    ].join('\n');
    assert.deepStrictEqual(dialectNames(text, ['polytoken', 'profy', 'picasso']), [
      "file.ts:1 'polytoken'",
      "file.ts:2 'profy'",
      'file.ts:3 .picasso',
      'file.ts:4 .polytoken',
    ]);
  });
});

/** The functions of a source text longer than `max` lines: `name (lines) at file:line`. */
function longFunctions(text: string, file: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const nameOf = (node: ts.Node): string => {
    const named = (node as { name?: ts.Node }).name;
    if (named) return named.getText(source);
    if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent))
      return node.parent.name.getText(source);
    return '(anonymous)';
  };
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      if (last - first + 1 > max) found.push(`${nameOf(node)} (${last - first + 1} lines) at ${file}:${first + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('architecture: no function over 100 lines', () => {
  it('in shared/, server/, cli/ and client/ (generated files aside)', () => {
    const long: string[] = [];
    for (const folder of ['shared', 'server', 'cli', 'client'])
      for (const file of sourceFiles(folder)) {
        if (file.endsWith('.generated.ts')) continue;
        for (const hit of longFunctions(fs.readFileSync(path.join(ROOT, file), 'utf8'), file, 100)) long.push(hit);
      }
    assert.deepStrictEqual(long, []);
  });

  it('the check can fail: a function, a method and an arrow over the limit are found by name', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `function big() {\n${body(5)}\n}`,
      `class C {\n  method() {\n${body(5)}\n  }\n}`,
      `const arrow = () => {\n${body(5)}\n};`,
      `function small() {\n  return 1;\n}`,
    ].join('\n');
    assert.deepStrictEqual(
      longFunctions(text, 'x.ts', 5).map((h) => h.split(' ')[0]),
      ['big', 'method', 'arrow'],
    );
  });
});
