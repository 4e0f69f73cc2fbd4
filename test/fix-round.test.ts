// The decisions of a verified fix round (shared/fixes/round.ts) and of "Fix all" around it
// (shared/fixes/apply.ts), asserted as decisions: which fixes a round accepts,
// demotes or leaves waiting, with what severity and why, and how many analyses it spends. The
// fix twins pin only the text a file ends with; the mutation run (docs/testing.md) showed
// that almost none of these decisions could fail a test.
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { parseConfig } from '../shared/config/config';
import { analyze } from '../shared/engine';
import { fixAll, markFixable, preferredFixes } from '../shared/fixes/apply';
import {
  ALONE_LIMIT,
  firstRound,
  GROUP_ANALYSES,
  offeredFixes,
  proposedFixes,
  verifyRound,
  type RoundOptions,
  type VerifiedRound,
} from '../shared/fixes/round';
import type { Analysis } from '../shared/types';
import { inputOf, PROFY, role, ROLE_DIR, WS } from './support/fix-round';

function roundOf(path: string, text: string, options: RoundOptions = {}, configText?: string) {
  const analysis = analyze(inputOf(path, text, configText));
  return { analysis, round: verifyRound({ text, analysis }, options) };
}

/** A Profy subagent on one line. */
const subagent = (name: string, tools = '["read"]') =>
  `{ "name": ${JSON.stringify(name)}, "description": "d", "system_prompt": "p", "tools": ${tools} }`;
/** A Profy Expert with these subagents, one a line unless `separator` says otherwise. */
const expert = (subagents: string[], separator = ',\n    ') =>
  `{\n  "name": "big",\n  "description": "d",\n  "delegationBrief": "b",\n  "tools": ["read", "grep"],\n  "subagents": [\n    ${subagents.join(separator)}\n  ]\n}\n`;
/** `n` subagents whose names hold a space: each fix (`a 3` → `a_3`) holds alone and together. */
const spaced = (n: number) => Array.from({ length: n }, (_, i) => subagent(`a ${i}`));
/** Pairs whose fixes make them equal (`a 0` and `a\t0` both become `a_0`): each holds alone, not both. */
const colliding = (pairs: number) =>
  Array.from({ length: pairs }, (_, i) => [subagent(`a ${i}`), subagent(`a\t${i}`)]).flat();

/** `rule@line` of each fix. */
const where = (list: { rule: string; diagnostic: Diagnostic }[]) =>
  list.map((c) => `${c.rule}@${c.diagnostic.range.start.line}`);
const demotedOf = (round: VerifiedRound) =>
  round.demoted.map((d) => `${d.candidate.rule}@${d.candidate.diagnostic.range.start.line}: ${d.reason}`);

describe('fix rounds: what a round decides (shared/fixes/round.ts)', () => {
  it('a candidate carries the default severity of its finding, not the one the configuration shows', () => {
    const text = role('auditor').replace('description: d', 'descriptoin: d');
    const overridden = 'rules:\n  picasso/unknown-key: error\n  picasso/missing-recommended: hint\n';
    for (const configText of [undefined, overridden]) {
      const analysis = analyze(inputOf(`${ROLE_DIR}/auditor.yaml`, text, configText));
      const proposed = proposedFixes(analysis);
      assert.deepStrictEqual(
        proposed.map((c) => `${c.rule} ${c.severity}`),
        ['picasso/missing-recommended information', 'picasso/unknown-key warning'],
        configText ?? 'defaults',
      );
      const shown = analysis.diagnostics.filter((d) => proposed.some((c) => c.diagnostic === d)).map((d) => d.severity);
      assert.deepStrictEqual(shown, configText ? [4, 1] : [3, 2], 'the diagnostics show the configured severity');
    }
  });

  it('an override does not change what a fix may add: an error shown as information may still add information', () => {
    // `1 a` → `1_a` loads, but is not identifier-like (profy/name-not-identifier, information).
    for (const configText of [undefined, 'rules:\n  profy/invalid-name: information\n']) {
      const { round } = roundOf(PROFY, expert([subagent('1 a')]), {}, configText);
      assert.deepStrictEqual(where(round.accepted), ['profy/invalid-name@6'], configText ?? 'defaults');
      assert.deepStrictEqual(round.demoted, []);
      assert.deepStrictEqual(
        round.analysis.findings.map((f) => f.rule),
        ['profy/name-not-identifier'],
      );
    }
  });

  it('a file of no known kind: nothing proposed, no analysis, and no path to report', () => {
    const { round } = roundOf(`${WS}/notes.txt`, 'x');
    assert.deepStrictEqual([round.path, round.text, round.accepted.length, round.analyses], ['', 'x', 0, 0]);
  });

  it('checks each fix alone from 2 up to ALONE_LIMIT fixes, then all together in one analysis', () => {
    assert.strictEqual(ALONE_LIMIT, 16);
    for (const [n, analyses] of [
      [1, 1],
      [2, 3],
      [ALONE_LIMIT, ALONE_LIMIT + 1],
      [ALONE_LIMIT + 1, 1],
    ]) {
      const { round } = roundOf(PROFY, expert(spaced(n)));
      assert.strictEqual(round.accepted.length, n, `${n} fixes`);
      assert.strictEqual(round.analyses, analyses, `${n} fixes`);
      assert.deepStrictEqual([round.demoted.length, round.waiting.length], [0, 0]);
    }
  });

  it('demotes a fix that breaks the property alone, with why, and applies none of it', () => {
    const text = role('SecurityAuditor');
    const { round } = roundOf(`${ROLE_DIR}/SecurityAuditor.yaml`, text);
    assert.deepStrictEqual(round.accepted, []);
    assert.deepStrictEqual(demotedOf(round), ['picasso/name-format@0: it would add picasso/name-mismatch (warning)']);
    assert.strictEqual(round.text, text);
    assert.strictEqual(round.analyses, 1);
  });

  it('checks each of several fixes alone: two that each break the property are demoted before any group', () => {
    const text =
      '---\nname: anchored\npolytoken:\n  tools: [file_read]\n  undeferred_tools: &shared\n    - grep\n  tools_deny: *shared\n---\nBody.\n';
    const { round } = roundOf(`${WS}/.polytoken/subagents/anchored.md`, text);
    assert.deepStrictEqual(demotedOf(round), [
      'polytoken/deny-undeferred-conflict@5: it would add polytoken/invalid-value (error)',
      'polytoken/undeferred-not-granted@5: it would add polytoken/invalid-value (error)',
    ]);
    assert.deepStrictEqual([round.accepted.length, round.analyses], [0, 2]);
  });

  it('with renames, applies a fix that renames the file, and proposes one that only renames it', () => {
    const path = `${ROLE_DIR}/SecurityAuditor.yaml`;
    const renamed = `${ROLE_DIR}/security_auditor.yaml`;
    const format = roundOf(path, role('SecurityAuditor'), { renames: true }).round;
    assert.deepStrictEqual(where(format.accepted), ['picasso/name-format@0']);
    assert.deepStrictEqual([format.path, format.text], [renamed, role('security_auditor')]);
    assert.deepStrictEqual(format.analysis.findings, []);
    // The name is right, only the file is not: no edit in the file, so only a round with renames has a fix.
    const mismatch = analyze(inputOf(path, role('security_auditor')));
    assert.deepStrictEqual(proposedFixes(mismatch), []);
    assert.deepStrictEqual(where(proposedFixes(mismatch, { renames: true })), ['picasso/name-mismatch@0']);
    const round = verifyRound({ text: role('security_auditor'), analysis: mismatch }, { renames: true });
    assert.deepStrictEqual([round.path, round.text, round.accepted.length], [renamed, role('security_auditor'), 1]);
    assert.strictEqual(verifyRound({ text: role('security_auditor'), analysis: mismatch }).path, path);
  });

  it('blames the fix on the line of the finding that grew, and keeps the others (no halving)', () => {
    const { round } = roundOf(PROFY, expert(colliding(1)));
    assert.deepStrictEqual(where(round.accepted), ['profy/invalid-name@6']);
    assert.deepStrictEqual(demotedOf(round), ['profy/invalid-name@7: it would add profy/duplicate-name (error)']);
    // Two alone, one together that fails, one for the group without the blamed fix.
    assert.strictEqual(round.analyses, 4);
  });

  it('blames, for each finding that grew, the fix on its line', () => {
    const { round } = roundOf(PROFY, expert(colliding(2)));
    assert.deepStrictEqual(where(round.accepted), ['profy/invalid-name@6', 'profy/invalid-name@8']);
    assert.deepStrictEqual(demotedOf(round), [
      'profy/invalid-name@7: it would add profy/duplicate-name (error)',
      'profy/invalid-name@9: it would add profy/duplicate-name (error)',
    ]);
    assert.strictEqual(round.analyses, 6);
  });

  it('blames the fix inside the definition granted more, and keeps the others', () => {
    // 17 fixes: none checked alone. `"tools": "grep"` → `["grep"]` would grant `grep` to `scanner`.
    const { round } = roundOf(PROFY, expert([...spaced(ALONE_LIMIT), subagent('scanner', '"grep"')]));
    assert.strictEqual(round.accepted.length, ALONE_LIMIT);
    assert.deepStrictEqual(demotedOf(round), ['profy/tools-not-array@22: it would grant `grep` to `scanner`']);
    assert.strictEqual(round.analyses, 2);
  });

  it('blames a fix when any of its edits shares a line with the finding that grew', () => {
    // 34 removals picked (more than ALONE_LIMIT) and the role rename, which edits `name` and
    // `invocation` and leaves the name differing from the file's (picasso/name-mismatch, on `name`).
    const tools = Array.from({ length: 34 }, (_, i) => `t${i}`).join(', ');
    const text = role('SecurityAuditor').replace('tools: [read_file, grep]', `tools: [${tools}]\ndeny: [${tools}]`);
    const { round } = roundOf(`${ROLE_DIR}/SecurityAuditor.yaml`, text);
    assert.strictEqual(round.accepted.length, 34);
    assert.deepStrictEqual(demotedOf(round), ['picasso/name-format@0: it would add picasso/name-mismatch (warning)']);
    assert.strictEqual(round.analyses, 2);
  });

  it('halves a failing group when blame cannot tell (every fix on the line of the finding)', () => {
    const { analysis, round } = roundOf(PROFY, expert(colliding(1), ', '));
    const [first, second] = proposedFixes(analysis);
    assert.deepStrictEqual(round.accepted, [first]);
    assert.deepStrictEqual(
      round.demoted.map((d) => d.candidate),
      [second],
    );
    assert.deepStrictEqual(demotedOf(round), ['profy/invalid-name@6: it would add profy/duplicate-name (error)']);
    // Two alone, one together, then each half.
    assert.strictEqual(round.analyses, 5);
  });

  it('spends at most GROUP_ANALYSES analyses on a failing group; what it did not decide waits', () => {
    assert.strictEqual(GROUP_ANALYSES, 32);
    const text = expert(colliding(20), ', ');
    const { analysis, round } = roundOf(PROFY, text);
    assert.strictEqual(round.analyses, GROUP_ANALYSES);
    const decided = round.accepted.length + round.demoted.length;
    assert.ok(decided > 0 && round.waiting.length > 0, `${decided} decided, ${round.waiting.length} waiting`);
    assert.strictEqual(decided + round.waiting.length, proposedFixes(analysis).length);
    for (const d of round.demoted) assert.match(d.reason, /profy\/duplicate-name/);
    // The next rounds go on from there.
    const all = fixAll(inputOf(PROFY, text));
    assert.strictEqual(all.applied.length, 20);
    assert.ok(all.rounds > 1, `${all.rounds} rounds`);
  });

  it("a group's floor is its lowest fix's severity: an information fix makes the group fail on an information finding", () => {
    // Removing `bogus_tool` from `tools` (an error's fix) leaves the suppression comment above it
    // unused (directive/unused, information); the rename fixes a missing recommended key (information).
    const text = role('auditor')
      .replace('description: d', 'descriptoin: d')
      .replace(
        'tools: [read_file, grep]',
        '# subagents-disable-next-line picasso/unknown-tool\ntools: [read_file, bogus_tool]\ndeny: [bogus_tool]',
      );
    const { round } = roundOf(`${ROLE_DIR}/auditor.yaml`, text);
    assert.deepStrictEqual(
      round.accepted.map((c) => `${c.rule} ${c.severity}`),
      [
        'picasso/missing-recommended information',
        'picasso/unknown-key warning',
        'picasso/tools-deny-overlap error',
        'picasso/tools-deny-overlap error',
      ],
    );
    // Four alone, the four together fail on directive/unused, then each half holds.
    assert.strictEqual(round.analyses, 7);
    assert.ok(round.analysis.findings.some((f) => f.rule === 'directive/unused'));
  });

  it('fixes whose edits touch an earlier one wait for the next round, undecided', () => {
    const text = `name: small\ninvocation: "@small"\nmodel: m\nmax_steps: 3\nmax_depth: 0\ntools: [t0, t1, t2]\ndeny: [t0, t1, t2]\n`;
    const { analysis, round } = roundOf(`${ROLE_DIR}/small.yaml`, text);
    const proposed = proposedFixes(analysis);
    assert.strictEqual(proposed.length, 6);
    const titles = (list: { plan: { title: string } }[]) => list.map((c) => c.plan.title);
    // Each shared tool has a finding on both lines, with the same fix. Adjacent removals touch:
    // `t1` waits for the next round.
    assert.deepStrictEqual(titles(round.accepted), [
      'Remove `t0` from `tools`',
      'Remove `t2` from `tools`',
      'Remove `t0` from `tools`',
      'Remove `t2` from `tools`',
    ]);
    assert.deepStrictEqual(round.waiting, [proposed[1], proposed[4]]);
    assert.strictEqual(round.text, text.replace('tools: [t0, t1, t2]', 'tools: [t1]'));
    assert.strictEqual(round.analyses, 5);
  });
});

describe('fix rounds: what the editor offers as preferred (offeredFixes)', () => {
  /** Whether the diagnostic's first offered fix is preferred, by `rule@line`. */
  const preferredByDiagnostic = (analysis: Analysis, options: RoundOptions = {}) =>
    analysis.diagnostics.map(
      (d) => `${d.code}@${d.range.start.line} ${offeredFixes(analysis, d, options)[0]?.preferred ?? false}`,
    );

  it('keeps a fix preferred when the first round accepts it, and offers a demoted one as not preferred', () => {
    const analysis = analyze(inputOf(PROFY, expert(colliding(1))));
    assert.deepStrictEqual(preferredByDiagnostic(analysis), [
      'profy/invalid-name@6 true',
      'profy/invalid-name@7 false',
    ]);
    const demoted = offeredFixes(analysis, analysis.diagnostics[1]);
    assert.deepStrictEqual(
      demoted.map((p) => p.title),
      ['Change to `a_0`'],
      'still offered',
    );
  });

  it('a rename keeps its fix preferred only where the client can rename files', () => {
    const format = analyze(inputOf(`${ROLE_DIR}/SecurityAuditor.yaml`, role('SecurityAuditor')));
    assert.deepStrictEqual(preferredByDiagnostic(format), ['picasso/name-format@0 false']);
    assert.deepStrictEqual(preferredByDiagnostic(format, { renames: true }), ['picasso/name-format@0 true']);
    assert.deepStrictEqual(preferredByDiagnostic(format), ['picasso/name-format@0 false'], 'kept apart per option');
    // A fix that only renames the file is never preferred without renames.
    const mismatch = analyze(inputOf(`${ROLE_DIR}/SecurityAuditor.yaml`, role('security_auditor')));
    assert.deepStrictEqual(preferredByDiagnostic(mismatch), ['picasso/name-mismatch@0 false']);
    assert.deepStrictEqual(preferredByDiagnostic(mismatch, { renames: true }), ['picasso/name-mismatch@0 true']);
  });

  it('a fix the first round leaves waiting is checked alone', () => {
    // 41 fixes on one line: the round runs out of analyses; `scanner`'s fix would grant it `grep`.
    const text = expert([...colliding(20), subagent('scanner', '"grep"')], ', ');
    const analysis = analyze(inputOf(PROFY, text));
    const round = firstRound(analysis, text, false);
    const waiting = new Set(round.waiting.map((c) => c.diagnostic));
    const grants = analysis.diagnostics.find((d) => d.code === 'profy/tools-not-array')!;
    const pair = analysis.diagnostics.find((d) => d.code === 'profy/invalid-name' && waiting.has(d))!;
    assert.ok(waiting.has(grants) && pair, 'both wait');
    assert.strictEqual(offeredFixes(analysis, grants)[0].preferred, false);
    assert.strictEqual(offeredFixes(analysis, pair)[0].preferred, true);
    // Asked again, the same answers (kept with the analysis).
    assert.strictEqual(offeredFixes(analysis, grants)[0].preferred, false);
  });

  it('verifies the first round once per analysis and option', () => {
    const text = expert(spaced(2));
    const analysis = analyze(inputOf(PROFY, text));
    const round = firstRound(analysis, text, false);
    assert.strictEqual(firstRound(analysis, text, false), round);
    assert.notStrictEqual(firstRound(analysis, text, true), round);
    assert.strictEqual(firstRound(analysis, text, true), firstRound(analysis, text, true));
    assert.deepStrictEqual(preferredFixes(analysis), round.accepted);
  });
});

describe('fix rounds: "Fix all" and its reports (shared/fixes/apply.ts)', () => {
  const overlap = `name: small\ninvocation: "@small"\nmodel: m\nmax_steps: 3\nmax_depth: 0\ntools: [t0, t1, t2]\ndeny: [t0, t1, t2]\n`;

  it('goes round after round until nothing changes, at most maxRounds, counting the analyses of each', () => {
    const input = inputOf(`${ROLE_DIR}/small.yaml`, overlap);
    const all = fixAll(input);
    assert.deepStrictEqual([all.rounds, all.oscillated], [2, false]);
    assert.strictEqual(all.text, overlap.replace('tools: [t0, t1, t2]', 'tools: []'));
    assert.strictEqual(all.applied.length, 6);
    // 5 for the first round (4 alone, 1 together), 3 for the second, none for the third (nothing proposed).
    assert.strictEqual(all.analyses, 8);
    const one = fixAll(input, { maxRounds: 1 });
    assert.deepStrictEqual([one.rounds, one.analyses, one.applied.length], [1, 5, 4]);
    assert.strictEqual(one.text, overlap.replace('tools: [t0, t1, t2]', 'tools: [t1]'));
  });

  it('reports the fixes the last round demoted, and renames a file only with renames', () => {
    const path = `${ROLE_DIR}/SecurityAuditor.yaml`;
    const kept = fixAll(inputOf(path, role('SecurityAuditor')));
    assert.deepStrictEqual([kept.rounds, kept.text, kept.path], [0, role('SecurityAuditor'), path]);
    assert.deepStrictEqual(kept.demoted, [
      {
        rule: 'picasso/name-format',
        title: 'Rename role to `security_auditor` (name, invocation, file)',
        reason: 'it would add picasso/name-mismatch (warning)',
      },
    ]);
    // Only the path changes: still a round that changed something.
    const renamed = fixAll(inputOf(path, role('security_auditor')), { renames: true });
    assert.deepStrictEqual(
      [renamed.rounds, renamed.text, renamed.path],
      [1, role('security_auditor'), `${ROLE_DIR}/security_auditor.yaml`],
    );
    assert.deepStrictEqual(renamed.applied, [
      { rule: 'picasso/name-mismatch', title: 'Rename role to `security_auditor` (file)' },
    ]);
    assert.deepStrictEqual(renamed.demoted, []);
  });

  it('marks as fixable the diagnostics whose fix the first round accepts, and no other', () => {
    const analysis = analyze(inputOf(PROFY, expert(colliding(1))));
    markFixable(analysis);
    assert.deepStrictEqual(
      analysis.diagnostics.map((d) => (d.data as { fixable?: boolean } | undefined)?.fixable),
      [true, undefined],
    );
    assert.strictEqual((analysis.diagnostics[0].data as { rule?: string }).rule, 'profy/invalid-name', 'data kept');
  });

  it('takes the preferred fixes of a configuration file from its document, and the editor shows them so', () => {
    const text = 'tols:\n  picasso: [run_tests]\nfiles:\n  picaso: ["roles/*.yaml"]\n';
    const path = `${WS}/.subagents.yaml`;
    const analysis = analyze({ text, path, config: parseConfig(text, path, WS), root: WS, kind: 'config' });
    assert.deepStrictEqual(
      preferredFixes(analysis).map((c) => c.plan.title),
      ['Rename to `tools`', 'Rename to `picasso`'],
    );
    assert.deepStrictEqual(
      analysis.diagnostics.map((d) => offeredFixes(analysis, d)[0].preferred),
      [true, true],
    );
  });
});
