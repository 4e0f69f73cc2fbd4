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
import { dialectModules } from '../shared';

const ROOT = path.resolve(__dirname, '../..');

/** Every `.ts` file below a folder of the repository, relative to the root with `/`. */
export function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk(folder);
  return out.sort();
}

/** The module specifiers a source text imports (static, re-exported, dynamic, required). */
export function importsOf(text: string, fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const e = node.moduleReference.expression;
      if (ts.isStringLiteral(e)) found.push(e.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repository-relative module (without extension) a relative specifier of `file` names. */
function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.(js|ts)$/, '');
}

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
});
