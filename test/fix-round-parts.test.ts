// The parts a fix round decides with (shared/fixes/registry.ts, property.ts, syntax.ts), tested
// directly: the fix twins reach only the branches some fixture happens to take, and the
// mutation run (docs/testing.md) found the rest. The round itself: test/fix-round.test.ts.
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { analyze } from '../shared/engine';
import { baselineOf, worsening, type FixBaseline } from '../shared/fixes/property';
import { fixPlansFor, isAppliedByFixAll, ownDiagnostic } from '../shared/fixes/registry';
import { syntaxYamlFixes } from '../shared/fixes/syntax';
import { parseYamlFile } from '../shared/text/document';
import type { FixPlan, SeverityName } from '../shared/types';
import { inputOf, role, ROLE_DIR, WS } from './support/fix-round';

describe('fix rounds: the registry a round asks (shared/fixes/registry.ts)', () => {
  it('finds its own diagnostic for one a client sent back: same rule, range and message', () => {
    const analysis = analyze(inputOf(`${ROLE_DIR}/code_review.yaml`, 'name: Code-Review\n'));
    const rule = 'picasso/missing-required';
    const missing = analysis.diagnostics.filter((d) => d.code === rule);
    assert.ok(missing.length > 2, 'several findings share the rule and the range');
    const sent = (d: Diagnostic, change: Partial<Diagnostic> = {}) =>
      ({ ...JSON.parse(JSON.stringify(d)), data: undefined, ...change }) as Diagnostic;
    for (const d of missing) {
      assert.strictEqual(ownDiagnostic(analysis, sent(d), rule), d);
      const markup = { kind: 'markdown', value: d.message } as unknown as string;
      assert.strictEqual(ownDiagnostic(analysis, sent(d, { message: markup }), rule), d, 'a message sent as markup');
    }
    const d = missing[1];
    const moved = (part: 'start' | 'end', field: 'line' | 'character') => {
      const range = JSON.parse(JSON.stringify(d.range));
      range[part][field]++;
      return sent(d, { range });
    };
    for (const part of ['start', 'end'] as const)
      for (const field of ['line', 'character'] as const)
        assert.strictEqual(ownDiagnostic(analysis, moved(part, field), rule), undefined, `${part}.${field} moved`);
    assert.strictEqual(ownDiagnostic(analysis, sent(d), 'picasso/name-format'), undefined, 'another rule');
    assert.strictEqual(
      ownDiagnostic(analysis, sent(d, { message: 'edited' }), rule),
      undefined,
      'several, none says it',
    );
    // Alone on its rule and range, a diagnostic is found whatever its message became.
    const single = analysis.diagnostics.find((x) => x.code === 'picasso/name-format')!;
    assert.strictEqual(ownDiagnostic(analysis, sent(single, { message: 'edited' }), 'picasso/name-format'), single);
  });

  it('"Fix all" applies a preferred fix with edits, nothing else', () => {
    const edit = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, newText: 'x' };
    for (const [plan, applies] of [
      [{ title: 't', edits: [edit], preferred: true }, true],
      [{ title: 't', edits: [], preferred: true, rename: { newPath: '/ws/x.md' } }, false],
      [{ title: 't', edits: [edit], preferred: false }, false],
      [{ title: 't', edits: [edit] }, false],
    ] as [FixPlan, boolean][])
      assert.strictEqual(isAppliedByFixAll(plan), applies, JSON.stringify(plan));
  });

  it('offers no fix for a value reached through an alias (the edit would rewrite `*alias`)', () => {
    const text =
      '---\nname: anchored\npolytoken:\n  tools: [file_read]\n  undeferred_tools: &shared\n    - grep\n  tools_deny: *shared\n---\nBody.\n';
    const analysis = analyze(inputOf(`${WS}/.polytoken/subagents/anchored.md`, text));
    const conflicts = analysis.diagnostics.filter((d) => d.code === 'polytoken/deny-undeferred-conflict');
    assert.deepStrictEqual(
      conflicts.map((d) => [d.range.start.line, fixPlansFor(analysis, d).length > 0]),
      [
        [5, true],
        [6, false],
      ],
    );
    // A misspelt tool copied through an alias: "Change to `read_file`" would write over `*t`.
    const copied = analyze(inputOf(`${ROLE_DIR}/r.yaml`, 'name: r\nx-list: &t [read_fil]\ntools: *t\n'));
    const unknown = copied.diagnostics.filter((d) => d.code === 'picasso/unknown-tool');
    assert.deepStrictEqual(
      unknown.map((d) => [d.range.start, fixPlansFor(copied, d)]),
      [[{ line: 2, character: 7 }, []]],
    );
  });
});

describe('fix rounds: the property a round checks (shared/fixes/property.ts)', () => {
  const grant = (name: string, ...tools: string[]) => ({ name, tools: new Set(tools) });
  const baseline = (
    counts: Record<string, number>,
    grants: FixBaseline['grants'] = [],
    parses = true,
  ): FixBaseline => ({
    counts: new Map(Object.entries(counts)),
    grants,
    parses,
  });

  it('a fix may add findings below its own severity, never a warning or an error', () => {
    const before = baseline({ 'x/a error': 1 });
    const cases: [Record<string, number>, SeverityName, string | undefined][] = [
      [{}, 'error', undefined],
      [{ 'x/b information': 1 }, 'error', undefined],
      [{ 'x/b hint': 2 }, 'warning', undefined],
      [{ 'x/b information': 1 }, 'information', 'it would add x/b (information)'],
      [{ 'x/b hint': 1 }, 'information', undefined],
      [{ 'x/b hint': 1 }, 'hint', 'it would add x/b (hint)'],
      [{ 'x/b warning': 1 }, 'error', 'it would add x/b (warning)'],
      [{ 'x/a error': 2 }, 'error', 'it would add x/a (error)'],
      [{ 'x/a error': 1, 'x/a warning': 1 }, 'error', 'it would add x/a (warning)'],
    ];
    for (const [counts, fixed, reason] of cases) {
      const why = worsening(before, baseline(counts), fixed);
      assert.strictEqual(why?.reason, reason, `${JSON.stringify(counts)} fixing a ${fixed}`);
      if (why)
        assert.deepStrictEqual(
          [...why.grownKeys],
          Object.keys(counts).filter((k) => k !== 'x/a error' || counts[k] > 1),
        );
    }
  });

  it('a fix may not stop a file from parsing', () => {
    assert.strictEqual(
      worsening(baseline({}), baseline({}, [], false), 'error')?.reason,
      'the file would no longer parse',
    );
    assert.strictEqual(worsening(baseline({}, [], false), baseline({}, [], false), 'error'), undefined);
    assert.strictEqual(worsening(baseline({}, [], false), baseline({}), 'error'), undefined);
    const path = `${ROLE_DIR}/planner.yaml`;
    assert.strictEqual(baselineOf(analyze(inputOf(path, role('planner')))).parses, true);
    assert.strictEqual(baselineOf(analyze(inputOf(path, `${role('planner')}tools: [\n`))).parses, false);
  });

  it('a fix may grant no definition a tool: definitions matched by place, else by name', () => {
    const cases: [FixBaseline['grants'], FixBaseline['grants'], string | undefined, number[]][] = [
      [[grant('a', 'x')], [grant('b', 'x')], undefined, []], // renamed in place
      [[grant('a', 'x')], [grant('a', 'x', 'y')], 'it would grant `y` to `a`', [0]],
      [[grant('', 'x')], [grant('', 'y')], 'it would grant `y` to the definition', [0]],
      [[grant('a', 'x'), grant('b', 'y')], [grant('b', 'y')], undefined, []], // one removed: matched by name
      [[grant('a', 'x')], [grant('a', 'x'), grant('c', 'z')], 'it would grant `z` to `c`', [1]], // a new one
      [[grant('a', 'x'), grant('a', 'y'), grant('b')], [grant('a', 'x'), grant('a', 'y')], undefined, []],
      [[grant('a', 'x'), grant('b')], [grant('b', 'x')], 'it would grant `x` to `b`', [0]],
    ];
    for (const [before, after, reason, grown] of cases) {
      const why = worsening(baseline({}, before), baseline({}, after), 'error');
      const label = `${JSON.stringify(before.map((g) => [g.name, ...g.tools]))} → ${JSON.stringify(after.map((g) => [g.name, ...g.tools]))}`;
      assert.strictEqual(why?.reason, reason, label);
      assert.deepStrictEqual(why?.grownDefinitions ?? [], grown, label);
    }
  });
});

describe('fix rounds: the quoting fix of syntax/yaml (shared/fixes/syntax.ts)', () => {
  /** The fix for a value starting at `needle` in `text`, as `title → new text`. */
  function quoting(text: string, at: number, code = 'BAD_SCALAR_START'): string[] {
    const file = parseYamlFile(text);
    const diagnostic = { range: file.source.range(at, at), message: '' };
    const plans = syntaxYamlFixes({ ctx: { file }, diagnostic, data: { code }, start: at, end: at, directives: [] });
    return plans.map((p) => {
      const start = file.source.offset(p.edits[0].range.start);
      const end = file.source.offset(p.edits[0].range.end);
      return `${p.preferred ? '*' : ''}${p.title} → ${text.slice(0, start)}${p.edits[0].newText}${text.slice(end)}`;
    });
  }

  it('quotes a value that starts with a reserved character up to the end of its line or a comment', () => {
    const cases: [string, string[]][] = [
      ['a: @x\n', ['*Quote `@x` → a: "@x"\n']],
      ['a: @x', ['*Quote `@x` → a: "@x"']],
      ['a: @x  \r\nb: 1\r\n', ['*Quote `@x` → a: "@x"  \r\nb: 1\r\n']],
      ['a: `x` # y\n', ['*Quote ``x`` → a: "`x`" # y\n']],
      ['a: %x#y\n', ['*Quote `%x#y` → a: "%x#y"\n']],
      ['a: @x: y\n', []],
      ['a: @x, y\n', []],
      ['a: @x}\n', []],
    ];
    for (const [text, expected] of cases) assert.deepStrictEqual(quoting(text, 3), expected, JSON.stringify(text));
  });

  it('offers nothing for another YAML error, another character, or the end of the file', () => {
    assert.deepStrictEqual(quoting('a: @x\n', 3, 'DUPLICATE_KEY'), []);
    assert.deepStrictEqual(quoting('a: x@\n', 3), []);
    assert.deepStrictEqual(quoting('a: ', 3), []);
  });
});
