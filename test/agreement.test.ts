/**
 * One truth per dialect: for random tool entries, configurations and catalogs, the rule
 * verdict, hover's text, completion's candidates and the resolution all say the same thing
 * about an entry (known or not, what it expands to or matches, whether it is removed).
 */
import * as assert from 'assert';
import fc from 'fast-check';
import type { CompletionItem, Diagnostic, Hover } from 'vscode-languageserver-types';
import { parseConfig } from '../shared/config/config';
import { analyze, resolveAnalysis } from '../shared/engine';
import { completions } from '../shared/features/completion';
import { hover } from '../shared/features/hover';
import { SourceText } from '../shared/text/source';
import type { Analysis, ResolvedDefinition } from '../shared/types';

const WS = '/ws';
const RUNS = 300;

// ---- random catalogs -------------------------------------------------------------------
const word = fc.constantFrom('read', 'grep', 'shell', 'deploy', 'ledger', 'post', 'fetch', 'team', 'x', 'ab');
const name = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a}_${b}`),
);
const server = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a}__${b}`),
);
const tag = fc.constantFrom('exec', 'net', 'io');

interface Catalog {
  tools: { name: string; tags: string[] }[];
  mcp: Record<string, string[]>;
  mainTools?: string[];
}

const catalog: fc.Arbitrary<Catalog> = fc.record({
  tools: fc.uniqueArray(fc.record({ name, tags: fc.uniqueArray(tag, { maxLength: 2 }) }), {
    maxLength: 5,
    selector: (t) => t.name,
  }),
  mcp: fc.dictionary(server, fc.uniqueArray(name, { minLength: 1, maxLength: 3 }), { maxKeys: 3 }),
  mainTools: fc.option(
    fc.uniqueArray(
      fc.oneof(
        name,
        fc.constantFrom(
          'read',
          'grep',
          'glob',
          'delegate',
          'Task',
          'mcp__ledger__post',
          'mcp__ledger__get',
          'tool_😀',
          'tool_a',
        ),
      ),
      { maxLength: 6 },
    ),
    { nil: undefined },
  ),
});

function configText(c: Catalog, dialect: string): string {
  const lines = ['tools:', `  ${dialect}:`];
  for (const t of c.tools) lines.push(`    - { name: ${JSON.stringify(t.name)}, tags: [${t.tags.join(', ')}] }`);
  if (!c.tools.length) lines.push('    []');
  lines.push('mcp:');
  const servers = Object.entries(c.mcp);
  for (const [s, tools] of servers)
    lines.push(`  ${JSON.stringify(s)}: [${tools.map((t) => JSON.stringify(t)).join(', ')}]`);
  if (!servers.length) lines[lines.length - 1] = 'mcp: {}';
  if (c.mainTools) lines.push(`profy:\n  mainTools: [${c.mainTools.map((t) => JSON.stringify(t)).join(', ')}]`);
  return lines.join('\n').replace(`  ${dialect}:\n    []`, `  ${dialect}: []`) + '\n';
}

/** Entries built from the catalog's own names, near misses and shorthands, so every verdict comes up. */
function entry(c: Catalog, dialect: string): fc.Arbitrary<string> {
  const known = [
    ...c.tools.map((t) => t.name),
    ...Object.entries(c.mcp).flatMap(([s, ts]) => ts.map((t) => `mcp__${s}__${t}`)),
    ...(c.mainTools ?? []),
  ];
  const pick = known.length ? fc.constantFrom(...known) : name;
  const servers = Object.keys(c.mcp);
  const options: fc.Arbitrary<string>[] = [
    pick,
    pick.map((n) => n.slice(0, -1) || 'q'),
    pick.map((n) => `${n}s`),
    name,
    fc.constantFrom(
      'file_read',
      'glob',
      'grep',
      'exit_tool',
      'switch_facet',
      'read_file',
      'query_memory',
      'write_memory',
      'delegate',
      'Task',
    ),
    fc.constantFrom('tag!ALL', 'tag!ALL_MCP'),
    tag.map((t) => `tag!${t}`),
    server.map((s) => `mcp__${s}`),
    fc.tuple(server, name).map(([s, t]) => `mcp__${s}__${t}`),
  ];
  if (servers.length) options.push(fc.constantFrom(...servers).map((s) => `mcp__${s}`));
  if (dialect === 'profy') {
    options.push(fc.constantFrom('*', '?ead', 're*', 'mcp__ledger__*', 'tool_?', 'T*', '*_a', 'gr?p'));
    options.push(pick.map((n) => `${n.slice(0, 2)}*`));
  }
  return fc.oneof(...options);
}

// ---- reading the features' answers ------------------------------------------------------
function hoverAt(analysis: Analysis, text: string, offset: number): string {
  const position = new SourceText(text).position(offset);
  const h: Hover | undefined = hover(analysis, position);
  const contents = h?.contents as { value?: string } | undefined;
  return contents?.value ?? '';
}

function labelsAt(analysis: Analysis, text: string, offset: number): Set<string> {
  const items: CompletionItem[] = completions(analysis, new SourceText(text).position(offset));
  return new Set(items.map((i) => i.label));
}

/** The names a hover line lists after "Expands now to N tools:" or "Matches now N tools …:". */
function listedIn(hoverText: string, lead: RegExp): string[] | undefined {
  const line = hoverText.split('\n').find((l) => lead.test(l));
  if (!line) return undefined;
  const names = [...line.slice(line.indexOf(':') + 1).matchAll(/`([^`]*)`/g)].map((m) => m[1]);
  const count = Number(/(\d+) tools?/.exec(line)?.[1]);
  assert.strictEqual(names.length, count, `the hover line lists every name: ${line}`);
  return names.sort();
}

const on = (diagnostics: Diagnostic[], rule: string, line: number) =>
  diagnostics.filter((d) => d.code === rule && d.range.start.line === line);

function grantedBy(def: ResolvedDefinition, why: string): string[] {
  return Object.entries(def.provenance ?? {})
    .filter(([, from]) => from.includes(why))
    .map(([t]) => t)
    .sort();
}

describe('agreement: rules, hover, completion and resolution say the same of a tool entry', () => {
  it('Polytoken: known / unknown / expands to X, in tools and in tools_deny', () => {
    fc.assert(
      fc.property(
        catalog.chain((c) => fc.tuple(fc.constant(c), entry(c, 'polytoken'))),
        ([c, value]) => {
          const config = parseConfig(configText(c, 'polytoken'), `${WS}/.subagents.yaml`, WS);
          assert.deepStrictEqual(config.findings, []);
          const quoted = JSON.stringify(value);
          const text = `---\nname: triage\ndescription: d\npolytoken:\n  tools: [${quoted}]\n  tools_deny: [${quoted}]\n---\nBody.\n`;
          const analysis = analyze({ text, path: `${WS}/.polytoken/subagents/triage.md`, config, root: WS });
          const def = resolveAnalysis(analysis, 'x')!.definitions[0];
          const toolsAt = text.indexOf(quoted) + 1;
          const hoverText = hoverAt(analysis, text, toolsAt);
          const unknown = on(analysis.diagnostics, 'polytoken/unknown-tool', 4);
          const shorthand =
            /^tag!|^mcp__/.test(value) &&
            !hoverText.startsWith(`**${value}** \u2014 Polytoken tool`) &&
            !/not in the Polytoken catalog/.test(hoverText);
          const expansion = listedIn(hoverText, /^Expands now to/);
          if (shorthand) {
            if (expansion) {
              // Expands to X: no unknown-tool, and every tool of X is granted by this entry (unless the deny list or the runtime removes it).
              assert.deepStrictEqual(unknown, [], 'an expanding shorthand is known');
              const removed = new Set(def.removed.map((r) => r.tool));
              const granted = grantedBy(def, `tools: ${value}`);
              assert.deepStrictEqual(granted, expansion.filter((t) => !removed.has(t) && t !== 'switch_facet').sort());
              assert.ok(!def.unexpanded?.includes(value));
            } else {
              assert.match(hoverText, /Expands to nothing/);
              assert.ok(def.unexpanded?.includes(value), 'what hover cannot expand, resolution leaves unexpanded');
              assert.ok(
                /^tag!ALL/.test(value) || unknown.length === 1,
                'a tag or server that grants nothing is reported',
              );
            }
          } else {
            const inCatalog = !/not in the Polytoken catalog/.test(hoverText);
            assert.strictEqual(unknown.length === 0, inCatalog, `rule and hover agree on ${value}`);
            if (value !== 'switch_facet' && value !== 'exit_tool')
              assert.deepStrictEqual(
                grantedBy(def, 'tools'),
                [value].filter(() => !def.removed.some((r) => r.tool === value)),
              );
          }
          // Completion offers an entry in `tools` exactly when it is known and grants something.
          const completionText = text.replace(`tools: [${quoted}]`, 'tools: []');
          const fresh = analyze({
            text: completionText,
            path: `${WS}/.polytoken/subagents/triage.md`,
            config,
            root: WS,
          });
          const offered = labelsAt(fresh, completionText, completionText.indexOf('tools: [') + 8);
          const grants = shorthand
            ? !!expansion
            : unknown.length === 0 && value !== 'exit_tool' && value !== 'switch_facet';
          assert.strictEqual(
            offered.has(value),
            grants && unknown.length === 0,
            `completion offers ${value}: ${[...offered].join(', ')}`,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('Profy: what a subagent allowlist entry grants (literal, glob, reserved)', () => {
    fc.assert(
      fc.property(
        catalog.chain((c) => fc.tuple(fc.constant(c), entry(c, 'profy'))),
        ([c, value]) => {
          const config = parseConfig(configText(c, 'profy'), `${WS}/.subagents.yaml`, WS);
          const quoted = JSON.stringify(value);
          const text = `{\n  "name": "e",\n  "description": "d",\n  "delegationBrief": "b",\n  "subagents": [\n    { "name": "s", "description": "d", "system_prompt": "p", "tools": [${quoted}] }\n  ]\n}\n`;
          const analysis = analyze({ text, path: `${WS}/e.expert.json`, config, root: WS });
          const def = resolveAnalysis(analysis, 'x')!.definitions[0];
          const hoverText = hoverAt(analysis, text, text.indexOf(quoted) + 1);
          const unresolved = on(analysis.diagnostics, 'profy/unresolved-tool', 5);
          const reserved = on(analysis.diagnostics, 'profy/reserved-tool', 5);
          const granted = grantedBy(def, `tools: ${value}`);
          if (!c.mainTools) {
            assert.deepStrictEqual([unresolved, granted], [[], []], 'an unknown toolset checks nothing');
            return;
          }
          if (reserved.length) {
            assert.match(hoverText, /Reserved/);
            assert.deepStrictEqual(granted, []);
            return;
          }
          // unresolved-tool fires exactly when the resolution grants nothing through the entry.
          assert.strictEqual(unresolved.length === 1, granted.length === 0, `${value}: rule vs resolution`);
          const matched = listedIn(hoverText, /^Matches now/);
          if (/[*?]/.test(value))
            assert.deepStrictEqual(matched, granted, `${value}: hover lists what the glob grants`);
          else
            assert.match(
              hoverText,
              granted.length ? /In the main agent toolset: granted/ : /Not in the main agent toolset/,
            );
          const completionText = text.replace(`"tools": [${quoted}]`, '"tools": []');
          const fresh = analyze({ text: completionText, path: `${WS}/e.expert.json`, config, root: WS });
          const offered = labelsAt(fresh, completionText, completionText.indexOf('"tools": [') + 10);
          if (offered.has(value)) assert.ok(granted.length > 0, `completion offers ${value}, which grants nothing`);
          if (!/[*?]/.test(value) && granted.length)
            assert.ok(offered.has(value), `${value} resolves but is not offered`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('Picasso: known or not, and removed by deny or the memory scope', () => {
    fc.assert(
      fc.property(
        catalog.chain((c) =>
          fc.tuple(fc.constant(c), entry(c, 'picasso'), fc.constantFrom('none', 'read-only', 'session'), fc.boolean()),
        ),
        ([c, value, memory, denied]) => {
          const config = parseConfig(configText(c, 'picasso'), `${WS}/.subagents.yaml`, WS);
          const quoted = JSON.stringify(value);
          const text = `name: auditor\ninvocation: "@auditor"\nmodel: m\ntools: [${quoted}]\ndeny: [${denied ? quoted : ''}]\nmemory: ${memory}\nmax_steps: 3\nmax_depth: 0\n`;
          const analysis = analyze({ text, path: `${WS}/apps/cli/agents/auditor.yaml`, config, root: WS });
          const def = resolveAnalysis(analysis, 'x')!.definitions[0];
          const hoverText = hoverAt(analysis, text, text.indexOf(quoted) + 1);
          const unknown = on(analysis.diagnostics, 'picasso/unknown-tool', 3);
          assert.strictEqual(
            unknown.length === 0,
            !/not in the Picasso catalog/.test(hoverText),
            `${value}: rule vs hover`,
          );
          const removedBy = def.removed.find((r) => r.tool === value)?.by;
          assert.strictEqual(def.tools.includes(value), !removedBy);
          assert.strictEqual(removedBy === 'deny', denied);
          assert.strictEqual(/Also in `deny`/.test(hoverText), denied);
          const refused = (
            { none: ['query_memory', 'write_memory'], 'read-only': ['write_memory'], session: [] } as Record<
              string,
              string[]
            >
          )[memory].includes(value);
          assert.strictEqual(/Refused by this role's `memory/.test(hoverText), refused);
          assert.strictEqual(on(analysis.diagnostics, 'picasso/memory-conflict', 3).length === 1, refused);
          assert.strictEqual(removedBy === `memory: ${memory}`, refused && !denied);
          const completionText = text.replace(`tools: [${quoted}]`, 'tools: []');
          const fresh = analyze({ text: completionText, path: `${WS}/apps/cli/agents/auditor.yaml`, config, root: WS });
          const offered = labelsAt(fresh, completionText, completionText.indexOf('tools: [') + 8);
          assert.strictEqual(
            offered.has(value) || (denied && unknown.length === 0),
            unknown.length === 0,
            `completion offers ${value} exactly when the catalog knows it`,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
