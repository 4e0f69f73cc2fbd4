/**
 * fast-check generators for property tests and `npm run fuzz`: valid-ish definitions of
 * every dialect built from the dialects' key lists and the catalogs, serialized in varied
 * styles, then mutated (characters deleted or inserted, truncation, duplicated lines,
 * CRLF, BOM, tabs). Also the invariants every analysis must keep.
 */
import fc from 'fast-check';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { analyze, resolveAnalysis } from '../../shared/engine';
import { defaultSeverity } from '../../shared/rules/registry';
import type { DocumentInput, WorkspaceIndex } from '../../shared/types';
import { nameIndex } from '../../shared/workspace/names';
import { dialectModules } from '../../shared/dialects';
import { PROFY_RESERVED } from '../../shared/dialects/profy/builtins';
import { profySettings } from '../../shared/dialects/profy/settings';
import { defaultLoadedConfig, parseConfig, type LoadedConfig } from '../../shared/config/config';
import { POLYTOKEN_KEYS, TOP_LEVEL_KEYS, TEMPLATE_BLOCK_TAGS } from '../../shared/dialects/polytoken/constants';
import { ALL_KEYS as PICASSO_KEYS, MEMORY_DENIES, MEMORY_SCOPES } from '../../shared/dialects/picasso/constants';
import { EXPERT_KEYS, SUBAGENT_KEYS } from '../../shared/dialects/profy/constants';
import { RULES } from '../../shared/rules/registry';
import { SourceText } from '../../shared/text/source';
import { getValue, isArray, isObject, isString, stringItems, type AstNode } from '../../shared/text/tree';
import type { Dialect, FileKind, Finding, Resolution } from '../../shared/types';

export const WS = '/ws';

// ---- Vocabulary ------------------------------------------------------------------

const builtinNames = dialectModules().flatMap((m) => m.tools.map((t) => t.name));
export const TOOL_NAMES = [
  ...new Set([
    ...builtinNames,
    'deploy',
    'shell',
    'run_tests',
    'web_search',
    'mcp__github__create_issue',
    'mcp__github__list_issues',
    'mcp__github',
    'mcp__nope',
    'mcp__nope__x',
    'mcp__ledger__*',
    'tag!ALL',
    'tag!ALL_MCP',
    'tag!exec',
    'tag!nothing',
    'gr*',
    '?ead',
    '*',
    'file_raed',
    'Grep',
    'exit_tool',
    'switch_facet',
    '',
  ]),
];
const NAMES = [
  'triage',
  'code_review',
  'code-review',
  'Reviewer',
  'a b',
  'x"y',
  'task',
  'Task',
  'general',
  'agent_1',
  '',
  '@triage',
  'ünïcode',
];
const WORDS = [
  'alpha',
  'beta',
  'the quick fox',
  'ok',
  'done',
  'success',
  'Failure',
  'maybe',
  'none',
  'all',
  'read-only',
  'session',
  'true',
  '~',
  'null',
  '0x1F',
  '1e3',
];
const SPECIAL = [
  '\n',
  '\r\n',
  '\r',
  '\t',
  ' ',
  ':',
  '- ',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '#',
  '&a',
  '*a',
  '!',
  '|',
  '>',
  '%',
  '@',
  ',',
  '---',
  '...',
  '\\',
  '{{',
  '}}',
  '{%',
  '%}',
  '\u0000',
  '\ufeff',
  '\u2028',
  '😀',
  'é',
  '\u00a0',
];
const SEVERITIES = ['off', 'error', 'warning', 'information', 'hint', 'fatal', 1];
const RULE_IDS = RULES.map((r) => r.id);

const word = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12 }));
const toolName = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...TOOL_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const toolList = fc.array(toolName, { maxLength: 6 });

/** Any JSON-ish value, small. */
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    word,
    toolName,
    fc.integer({ min: -5, max: 100 }),
    fc.constantFrom(1.5, -0, 1e21, Number.MAX_SAFE_INTEGER),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(word, fc.constantFrom(...TOOL_NAMES)), tie('v'), { maxKeys: 3 }),
  ),
})).v;

/** Mostly the right type, sometimes anything. */
const typed = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: anyValue });

/** An object built from some of the keys, in random order, plus the odd unknown key. */
function someKeys(spec: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(spec);
  return fc
    .tuple(
      fc.subarray(keys),
      fc.record(spec),
      fc.option(
        fc.tuple(
          fc.constantFrom('tool', 'tools_dny', 'nme', 'extra', 'Name', 'max_stesp', 'delegationBreif'),
          anyValue,
        ),
        { freq: 4 },
      ),
    )
    .chain(([chosen, values, unknown]) =>
      fc.shuffledSubarray(chosen, { minLength: chosen.length, maxLength: chosen.length }).map((order) => {
        const out: Record<string, unknown> = {};
        for (const k of order) out[k] = values[k];
        if (unknown) out[unknown[0]] = unknown[1];
        return out;
      }),
    );
}

// ---- Serialization ---------------------------------------------------------------

export interface YamlStyle {
  flowLists: boolean;
  indent: number;
  quoteAll: boolean;
}

const yamlStyle = fc.record({ flowLists: fc.boolean(), indent: fc.constantFrom(2, 4), quoteAll: fc.boolean() });

function scalar(v: unknown, style: YamlStyle): string {
  if (v === null) return 'null';
  if (typeof v === 'string') {
    if (
      !style.quoteAll &&
      /^[A-Za-z_@][\w@!*?.\- ]*$/.test(v) &&
      !/^(true|false|null|yes|no|on|off|~)$/i.test(v) &&
      !/[ ]$/.test(v) &&
      !v.includes(': ') &&
      !v.includes(' #')
    )
      return v;
    return JSON.stringify(v);
  }
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '.nan';
  return String(v);
}

/** A YAML rendering of a plain value (block style, with flow lists on request). */
export function toYaml(v: unknown, style: YamlStyle, indent = 0): string {
  const pad = ' '.repeat(indent);
  const inner = ' '.repeat(indent + style.indent);
  const flow = (x: unknown): string =>
    Array.isArray(x)
      ? `[${x.map(flow).join(', ')}]`
      : x && typeof x === 'object'
        ? `{${Object.entries(x)
            .map(([k, y]) => `${scalar(k, style)}: ${flow(y)}`)
            .join(', ')}}`
        : scalar(x, style);
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>);
    if (!entries.length) return `${pad}{}\n`;
    return entries
      .map(([k, x]) => {
        const key = `${pad}${scalar(k, style)}:`;
        if (Array.isArray(x)) {
          if (style.flowLists || !x.length || x.some((y) => Array.isArray(y))) return `${key} ${flow(x)}\n`;
          return `${key}\n${x.map((y) => (y && typeof y === 'object' ? `${inner}- ${flow(y)}\n` : `${inner}- ${scalar(y, style)}\n`)).join('')}`;
        }
        if (x && typeof x === 'object')
          return Object.keys(x).length ? `${key}\n${toYaml(x, style, indent + style.indent)}` : `${key} {}\n`;
        return `${key} ${scalar(x, style)}\n`;
      })
      .join('');
  }
  return `${pad}${flow(v)}\n`;
}

// ---- Definitions -----------------------------------------------------------------

export interface Case {
  kind: FileKind;
  path: string;
  text: string;
}

const exitSchema = fc.oneof(
  fc.record({
    type: fc.constantFrom('object', 'objekt'),
    properties: fc.record({
      status: fc.record({
        type: fc.constantFrom('string', 'integer'),
        enum: fc.array(fc.constantFrom('success', 'failure', 'cancelled', 'ok', 'maybe', 'Done', 'ERROR', 'partial'), {
          maxLength: 4,
        }),
      }),
      success: fc.record({ type: fc.constant('boolean') }),
    }),
    required: fc.constantFrom(['status'], ['nothing'], 'status'),
  }),
  anyValue,
);

const polytokenValues: Record<string, fc.Arbitrary<unknown>> = {
  model: typed(word),
  fallback_models: typed(fc.array(word, { maxLength: 3 })),
  tools: typed(toolList),
  tools_deny: typed(toolList),
  undeferred_tools: typed(toolList),
  skills_allow: typed(fc.array(word, { maxLength: 2 })),
  skills_deny: typed(fc.array(word, { maxLength: 2 })),
  autonomous_hint: typed(word),
  auto_facet_hint: typed(word),
  inherit_tools: typed(fc.boolean()),
  allow_subagent_spawn: typed(fc.boolean()),
  exit_tool_schema: exitSchema,
};
// Every key the dialect knows gets a generator (new keys fall back to any value).
for (const k of POLYTOKEN_KEYS) polytokenValues[k] ??= anyValue;

const templateBody = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '{{ task }}',
        '{{',
        '}}',
        '{%',
        '{% raw %}',
        '{% endraw %}',
        '{# note #}',
        '{#',
        '{% else %}',
        '{% elif x %}',
        'text ',
        '\n',
        '## Heading\n',
        '`code`',
        '{{ "}}" }}',
      ),
      fc
        .constantFrom(...TEMPLATE_BLOCK_TAGS)
        .chain((t) => fc.constantFrom(`{% ${t} x %}`, `{% end${t} %}`, `{%- ${t} -%}`)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

const suppression = fc.option(
  fc.constantFrom(
    '# subagents-disable-next-line polytoken/unknown-tool\n',
    '# subagents-disable picasso/unknown-key, syntax/yaml\n',
    '# subagents-disable\n',
    '# subagents-disable-next-line\n',
  ),
  { freq: 5 },
);

const polytokenCase: fc.Arbitrary<Case> = fc
  .record({
    file: fc.constantFrom('triage', 'code-review', 'x', 'Agent 1'),
    top: someKeys({
      name: typed(fc.constantFrom(...NAMES, 'triage', 'code-review')),
      description: typed(word),
      polytoken: typed(someKeys(polytokenValues)),
    }),
    style: yamlStyle,
    body: templateBody,
    close: fc.constantFrom('---', '---', '...', ''),
    sup: suppression,
  })
  .map(({ file, top, style, body, close, sup }) => {
    void TOP_LEVEL_KEYS;
    const yaml = toYaml(top, style);
    const lines = yaml.split('\n');
    if (sup) lines.splice(Math.floor(lines.length / 2), 0, sup.trimEnd());
    return {
      kind: 'polytoken' as const,
      path: `${WS}/.polytoken/subagents/${file}.md`,
      text: `---\n${lines.join('\n')}${close ? close + '\n' : ''}${body}`,
    };
  });

const picassoValues: Record<string, fc.Arbitrary<unknown>> = {
  name: typed(fc.constantFrom(...NAMES, 'code_review')),
  invocation: typed(fc.constantFrom('@code_review', '@triage', 'code_review', '@', '@Code_Review')),
  model: typed(word),
  tools: typed(toolList),
  max_steps: typed(fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constantFrom(1.5, '3'))),
  max_depth: typed(fc.oneof(fc.integer({ min: -2, max: 5 }), fc.constant(0.5))),
  output_schema: typed(exitSchema),
  description: typed(word),
  when_to_use: typed(word),
  deny: typed(toolList),
  hooks: typed(
    fc.oneof(
      fc.constantFrom('none', 'all', 'some'),
      fc.record({ skip: typed(fc.array(word, { maxLength: 3 })) }),
      fc.record({ skip: fc.array(word), other: word }),
    ),
  ),
  memory: typed(fc.oneof(fc.constantFrom(...MEMORY_SCOPES), fc.constantFrom('forever', 'None', ''))),
  system_prompt: typed(word),
};
for (const k of PICASSO_KEYS) picassoValues[k] ??= anyValue;

const picassoCase: fc.Arbitrary<Case> = fc
  .record({
    file: fc.constantFrom('code_review', 'triage', 'Code-Review'),
    where: fc.constantFrom('md-frontmatter', 'md-yaml', 'yaml', 'yml'),
    role: fc.oneof(
      { weight: 9, arbitrary: someKeys(picassoValues) as fc.Arbitrary<unknown> },
      { weight: 1, arbitrary: anyValue },
    ),
    style: yamlStyle,
    body: fc.constantFrom('', '\n', 'Some instructions.\n', '# Role\n\nDo things.\n'),
    sup: suppression,
  })
  .map(({ file, where, role, style, body, sup }) => {
    const yaml = (sup ?? '') + toYaml(role, style);
    if (where === 'md-frontmatter')
      return { kind: 'picasso' as const, path: `${WS}/.picasso/agents/${file}.md`, text: `---\n${yaml}---\n${body}` };
    if (where === 'md-yaml') return { kind: 'picasso' as const, path: `${WS}/.picasso/agents/${file}.md`, text: yaml };
    return { kind: 'picasso' as const, path: `${WS}/apps/cli/agents/${file}.${where}`, text: yaml };
  });

const subagentValues: Record<string, fc.Arbitrary<unknown>> = {
  name: typed(fc.constantFrom(...NAMES)),
  description: typed(word),
  system_prompt: typed(word),
  tools: typed(toolList),
  model: typed(word),
};
for (const k of SUBAGENT_KEYS) subagentValues[k] ??= anyValue;

const expertValues: Record<string, fc.Arbitrary<unknown>> = {
  name: typed(fc.constantFrom(...NAMES)),
  description: typed(word),
  delegatable: typed(fc.boolean()),
  delegationBrief: typed(word),
  delegationPolicy: typed(
    fc.oneof(fc.constantFrom('none', 'all', 'some'), fc.array(fc.constantFrom(...NAMES), { maxLength: 14 })),
  ),
  tools: typed(toolList),
  subagents: typed(
    fc.array(
      fc.oneof(
        { weight: 8, arbitrary: someKeys(subagentValues) as fc.Arbitrary<unknown> },
        { weight: 1, arbitrary: anyValue },
      ),
      { maxLength: 5 },
    ),
  ),
};
for (const k of EXPERT_KEYS) expertValues[k] ??= anyValue;

const profyCase: fc.Arbitrary<Case> = fc
  .record({
    expert: fc.oneof(
      { weight: 9, arbitrary: someKeys(expertValues) as fc.Arbitrary<unknown> },
      { weight: 1, arbitrary: anyValue },
    ),
    indent: fc.constantFrom(0, 2, '\t'),
  })
  .map(({ expert, indent }) => ({
    kind: 'profy' as const,
    path: `${WS}/bookkeeper.expert.json`,
    text: JSON.stringify(expert, null, indent) ?? 'null',
  }));

const configModel = someKeys({
  files: typed(fc.record({ polytoken: fc.array(fc.constantFrom('agents/*.md', '**/*.md'), { maxLength: 1 }) })),
  ignore: typed(fc.array(fc.constantFrom('test/**', '**/*.yaml'), { maxLength: 1 })),
  tools: typed(
    fc.record({
      polytoken: fc.array(
        fc.oneof(
          fc.constantFrom('deploy', 'shell'),
          fc.record({
            name: fc.constantFrom('shell', 'grep'),
            description: word,
            tags: fc.array(fc.constantFrom('exec', 'io'), { maxLength: 2 }),
          }),
        ),
        { maxLength: 3 },
      ),
      picasso: fc.array(fc.constantFrom('run_tests', 'query_memory'), { maxLength: 2 }),
      profy: fc.array(fc.constantFrom('web_search', 'Task'), { maxLength: 2 }),
    }),
  ),
  mcp: typed(
    fc.dictionary(
      fc.constantFrom('github', 'ledger', 'a b'),
      fc.array(fc.constantFrom('create_issue', 'post_entry', '*'), { maxLength: 2 }),
      { maxKeys: 2 },
    ),
  ),
  polytoken: typed(
    fc.record({
      facetTools: fc.array(toolName, { maxLength: 4 }),
      subagentDirs: fc.array(fc.constantFrom('vendor/agents', '../x'), { maxLength: 2 }),
    }),
  ),
  profy: typed(
    fc.record({
      mainTools: fc.array(toolName, { maxLength: 5 }),
      builtinSubagents: fc.array(fc.constantFrom(...NAMES), { maxLength: 2 }),
    }),
  ),
  rules: typed(
    fc.dictionary(fc.constantFrom(...RULE_IDS, 'no/such-rule'), fc.constantFrom(...SEVERITIES), { maxKeys: 3 }),
  ),
});

/** A `.subagents.yaml` text (often valid, sometimes not). */
export const configText = fc.tuple(configModel, yamlStyle).map(([c, style]) => toYaml(c, style));

const configCase: fc.Arbitrary<Case> = configText.map((text) => ({
  kind: 'config' as const,
  path: `${WS}/.subagents.yaml`,
  text,
}));

// ---- Mutations -------------------------------------------------------------------

export type Mutation =
  | { op: 'delete'; at: number; len: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate-line'; line: number }
  | { op: 'swap-lines'; a: number; b: number }
  | { op: 'crlf' }
  | { op: 'bom' }
  | { op: 'tabs' }
  | { op: 'retype'; line: number; to: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 8 }) }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ maxLength: 4 })),
  }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicate-line' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('swap-lines' as const), a: fc.nat(), b: fc.nat() }),
  fc.constant({ op: 'crlf' as const }),
  fc.constant({ op: 'bom' as const }),
  fc.constant({ op: 'tabs' as const }),
  fc.record({
    op: fc.constant('retype' as const),
    line: fc.nat(),
    to: fc.constantFrom(
      '[]',
      '{}',
      '1',
      'true',
      'null',
      '"x"',
      '[a, [b]]',
      '- a',
      '|\n  block',
      '&x 1',
      '*x',
      '!!str 3',
      '!!binary aGk=',
      '!custom x',
    ),
  }),
);

export function mutate(text: string, m: Mutation): string {
  const at = (n: number) => (text.length ? n % (text.length + 1) : 0);
  const lines = () => text.split('\n');
  switch (m.op) {
    case 'delete':
      return text.slice(0, at(m.at)) + text.slice(at(m.at) + m.len);
    case 'insert':
      return text.slice(0, at(m.at)) + m.text + text.slice(at(m.at));
    case 'truncate':
      return text.slice(0, at(m.at));
    case 'duplicate-line': {
      const l = lines();
      const i = m.line % l.length;
      l.splice(i, 0, l[i]);
      return l.join('\n');
    }
    case 'swap-lines': {
      const l = lines();
      const a = m.a % l.length;
      const b = m.b % l.length;
      [l[a], l[b]] = [l[b], l[a]];
      return l.join('\n');
    }
    case 'crlf':
      return text.replace(/\r?\n/g, '\r\n');
    case 'bom':
      return '\ufeff' + text;
    case 'tabs':
      return text.replace(/^( {2})+/gm, (s) => '\t'.repeat(s.length / 2));
    case 'retype': {
      const l = lines();
      const i = m.line % l.length;
      const colon = l[i].indexOf(': ');
      if (colon >= 0) l[i] = l[i].slice(0, colon + 2) + m.to;
      return l.join('\n');
    }
  }
}

const mutated = (base: fc.Arbitrary<Case>) =>
  fc
    .tuple(base, fc.array(mutation, { maxLength: 3 }))
    .map(([c, ms]) => ({ ...c, text: ms.reduce(mutate, c.text), mutations: ms }));

export const CASES: Record<FileKind, fc.Arbitrary<Case & { mutations: Mutation[] }>> = {
  polytoken: mutated(polytokenCase),
  picasso: mutated(picassoCase),
  profy: mutated(profyCase),
  config: mutated(configCase),
};

// ---- Configuration and workspace -------------------------------------------------

/** The configuration a definition is checked with: the defaults, or a generated `.subagents.yaml`. */
export const loadedConfig: fc.Arbitrary<LoadedConfig> = fc.option(configText, { freq: 3 }).map((text) => {
  if (text === null) return defaultLoadedConfig(WS);
  const loaded = parseConfig(text, `${WS}/.subagents.yaml`, WS);
  loaded.globalDir = '/home/u/.config/polytoken/subagents';
  return loaded;
});

export const workspaceIndex: fc.Arbitrary<WorkspaceIndex | undefined> = fc.option(
  fc
    .array(
      fc.record({
        dir: fc.constantFrom(
          `${WS}/.polytoken/subagents`,
          `${WS}/sub/.polytoken/subagents`,
          `${WS}/vendor/agents`,
          '/home/u/.config/polytoken/subagents',
        ),
        name: fc.constantFrom(...NAMES, 'triage', 'code-review', 'x'),
      }),
      { maxLength: 6 },
    )
    .map((entries) =>
      nameIndex({
        polytoken: entries.map((e, i) => ({ path: `${e.dir}/${e.name || 'f' + i}.md`, name: e.name })),
      }),
    ),
  { freq: 3 },
) as fc.Arbitrary<WorkspaceIndex | undefined>;

// ---- Invariants ------------------------------------------------------------------

export interface Outcome {
  diagnostics: Diagnostic[];
  findings: Finding[];
  resolution?: Resolution;
}

/** What a case is analysed with: its kind given (a generated configuration may `ignore` the path). */
export const caseInput = (c: Case, loaded: LoadedConfig, workspace?: WorkspaceIndex): DocumentInput => ({
  text: c.text,
  path: c.path,
  kind: c.kind,
  config: loaded,
  root: WS,
  workspace,
});

/** Analyzes a case, asserting every invariant; throws a descriptive Error when one breaks. */
export function checkInvariants(c: Case, loaded: LoadedConfig, workspace?: WorkspaceIndex): Outcome {
  const ruleErrors: string[] = [];
  let root: AstNode | undefined;
  const run = (): Outcome => {
    // The kind is given: a generated configuration may `ignore` the path (recognition has tests of its own).
    const analysis = analyze({
      ...caseInput(c, loaded, workspace),
      onRuleError: (rule, e) => ruleErrors.push(`${rule}: ${(e as Error)?.stack ?? e}`),
    });
    if (analysis.kind !== c.kind) throw new Error(`recognized as ${analysis.kind}, expected ${c.kind}`);
    root = analysis.context?.file.root;
    return {
      diagnostics: analysis.diagnostics,
      findings: analysis.findings,
      resolution: resolveAnalysis(analysis, c.path),
    };
  };
  const first = run();
  if (ruleErrors.length) throw new Error(`a rule threw: ${ruleErrors[0]}`);

  checkRanges(c.text, first.diagnostics);
  // Diagnostics cross thread and process boundaries (workers, LSP, JSON output).
  structuredClone(first);
  const json = JSON.stringify(first);
  if (JSON.stringify(JSON.parse(json)) !== json) throw new Error('diagnostics or resolution do not survive JSON');

  // The same input always gives the same output.
  const second = run();
  if (JSON.stringify(second) !== json) throw new Error('a second analysis of the same input differs');

  if (first.resolution) checkResolution(c, loaded, first, root);
  return first;
}

/** Every range inside the document: 0 ≤ line < lineCount, character ≤ that line's length, start ≤ end. */
export function checkRanges(text: string, diagnostics: readonly Diagnostic[]): void {
  const source = new SourceText(text);
  const lineCount = source.lineCount;
  const lineLength = (line: number) => {
    const start = source.offset({ line, character: 0 });
    let end = line + 1 < lineCount ? source.offset({ line: line + 1, character: 0 }) : source.text.length;
    while (end > start && (source.text[end - 1] === '\n' || source.text[end - 1] === '\r')) end--;
    return end - start;
  };
  const inside = (p: { line: number; character: number }) =>
    Number.isInteger(p.line) &&
    Number.isInteger(p.character) &&
    p.line >= 0 &&
    p.line < lineCount &&
    p.character >= 0 &&
    p.character <= lineLength(p.line);
  for (const d of diagnostics) {
    const { start, end } = d.range;
    if (!inside(start) || !inside(end))
      throw new Error(
        `range outside the document (${lineCount} lines): ${JSON.stringify(d.range)} for ${d.code}: ${d.message}`,
      );
    if (start.line > end.line || (start.line === end.line && start.character > end.character))
      throw new Error(`range ends before it starts: ${JSON.stringify(d.range)} for ${d.code}`);
    if (d.source !== 'subagents' || typeof d.code !== 'string' || !d.message)
      throw new Error(`malformed diagnostic: ${JSON.stringify(d)}`);
  }
}

function checkResolution(c: Case, loaded: LoadedConfig, o: Outcome, root: AstNode | undefined): void {
  const r = o.resolution!;
  // The runtime's verdict reads the findings with their default severities, never the display settings.
  const hasError = o.findings.some((f) => defaultSeverity(f) === 'error');
  const shownErrors = new Set(
    o.diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => String(d.code)),
  );
  for (const def of r.definitions) {
    const sorted = [...new Set(def.tools)].sort();
    if (JSON.stringify(sorted) !== JSON.stringify(def.tools))
      throw new Error(`tools are not sorted and unique: ${JSON.stringify(def.tools)}`);
    if (!['loads', 'rejected', 'dropped'].includes(def.status)) throw new Error(`unknown status ${def.status}`);
    if (c.kind !== 'profy' && hasError && def.status === 'loads')
      throw new Error('an error finding is present but the status is loads');
    if (c.kind !== 'profy' && !hasError && def.status !== 'loads')
      throw new Error(`no error finding but the status is ${def.status}`);
    for (const rule of def.silenced ?? []) {
      if (!def.reasons?.includes(rule)) throw new Error(`silenced ${rule} is not among the reasons`);
      if (c.kind !== 'profy' && shownErrors.has(rule)) throw new Error(`silenced ${rule} is shown as an error`);
    }
    if (c.kind !== 'profy')
      for (const rule of def.reasons ?? [])
        if (!shownErrors.has(rule) && !def.silenced?.includes(rule))
          throw new Error(`${rule} decides the status, is not shown and not listed as silenced`);
  }
  const granted = (tool: string) => r.definitions.some((d) => d.tools.includes(tool));
  if (c.kind === 'polytoken') {
    const poly = getValue(root, 'polytoken');
    for (const { value } of stringItems(getValue(poly, 'tools_deny'))) {
      if (value !== 'exit_tool' && granted(value))
        throw new Error(`\`${value}\` is in tools_deny but resolved as granted`);
    }
    if (granted('switch_facet')) throw new Error('switch_facet resolved as granted');
    // A file that does not parse is rejected and grants nothing (the runtime cannot load it).
    const unparsable = r.definitions.some((d) => d.reasons?.some((rule) => rule.startsWith('syntax/')));
    if (!granted('exit_tool') && !unparsable) throw new Error('exit_tool is always registered but missing');
    if (unparsable && r.definitions.some((d) => d.tools.length || d.status === 'loads'))
      throw new Error('a file that does not parse resolved as granting tools or loading');
  }
  if (c.kind === 'picasso' && isObject(root)) {
    for (const { value } of stringItems(getValue(root, 'deny')))
      if (granted(value)) throw new Error(`\`${value}\` is in deny but resolved as granted`);
    const memory = getValue(root, 'memory');
    if (isString(memory) && Object.prototype.hasOwnProperty.call(MEMORY_DENIES, memory.value)) {
      for (const t of MEMORY_DENIES[memory.value])
        if (granted(t)) throw new Error(`memory: ${memory.value} denies \`${t}\` but it resolved as granted`);
    }
  }
  if (c.kind === 'profy') {
    for (const t of PROFY_RESERVED) if (granted(t)) throw new Error(`reserved tool \`${t}\` resolved as granted`);
    const expertTools = getValue(root, 'tools');
    const main = isArray(expertTools)
      ? stringItems(expertTools).map((e) => e.value)
      : expertTools === undefined
        ? profySettings(loaded.config).mainTools
        : undefined;
    if (main)
      for (const d of r.definitions)
        for (const t of d.tools)
          if (!main.includes(t)) throw new Error(`\`${t}\` is not in the main toolset but resolved as granted`);
  }
}

export const DIALECT_KINDS: readonly Dialect[] = ['polytoken', 'picasso', 'profy'];
