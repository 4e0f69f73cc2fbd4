import * as assert from 'assert';
import { analyze } from '../../shared/engine';
import { DIALECT_MODULES } from '../../shared/dialects';
import type { Rule } from '../../shared/types';
import { defaultLoadedConfig } from '../../shared/config/config';
import type { Dialect, RuleId } from '../../shared/types';

/** A rule that throws is isolated: the other rules still report, and the error is told. */
const WS = '/ws';
const SAMPLES: Record<Dialect, { path: string; text: string; expect: string }> = {
  polytoken: {
    path: `${WS}/.polytoken/subagents/triage.md`,
    text: '---\nname: other\ndescription: d\npolytoken:\n  tools: [exit_tool]\n---\n',
    expect: 'polytoken/name-mismatch',
  },
  picasso: {
    path: `${WS}/apps/cli/agents/code_review.yaml`,
    text: 'name: Code-Review\n',
    expect: 'picasso/missing-required',
  },
  profy: {
    path: `${WS}/bookkeeper.expert.json`,
    text: '{"name": "b", "description": "d", "tools": ["read"], "subagents": [{"name": "Task"}]}',
    expect: 'profy/reserved-name',
  },
};

/** The sample's analysis, each rule error told into `errors` as `<rule>: <message>`. */
const analyzeTelling = (sample: { path: string; text: string }, errors: string[]) =>
  analyze({
    text: sample.text,
    path: sample.path,
    config: defaultLoadedConfig(WS),
    root: WS,
    onRuleError: (rule, e) => errors.push(`${rule}: ${(e as Error).message}`),
  });

describe('hardening: engine isolation', () => {
  for (const dialect of Object.keys(SAMPLES) as Dialect[]) {
    it(`${dialect}: a throwing rule does not stop the others`, () => {
      const sample = SAMPLES[dialect];
      const module = DIALECT_MODULES[dialect];
      const original = module.rules;
      const boom: Rule = {
        ids: ['test/boom' as RuleId],
        check() {
          throw new Error('boom');
        },
      };
      const returnsGarbage: Rule = {
        ids: ['test/garbage' as RuleId],
        check() {
          return undefined as never; // a rule that returns nothing at all
        },
      };
      const baseline = analyze({ text: sample.text, path: sample.path, config: defaultLoadedConfig(WS), root: WS });
      assert.ok(
        baseline.diagnostics.some((d) => d.code === sample.expect),
        `baseline reports ${sample.expect}`,
      );
      (module as { rules: readonly Rule[] }).rules = [boom, ...original, returnsGarbage, boom];
      const errors: string[] = [];
      try {
        const a = analyzeTelling(sample, errors);
        assert.deepStrictEqual(
          a.diagnostics.map((d) => d.code),
          baseline.diagnostics.map((d) => d.code),
          'the other rules report as before',
        );
        assert.strictEqual(errors.filter((e) => e === 'test/boom: boom').length, 2);
        assert.strictEqual(errors.filter((e) => e.startsWith('test/garbage')).length, 1);
        // Without a listener the error is swallowed, never thrown.
        assert.doesNotThrow(() =>
          analyze({ text: sample.text, path: sample.path, config: defaultLoadedConfig(WS), root: WS }),
        );
      } finally {
        (module as { rules: readonly Rule[] }).rules = original;
      }
      assert.strictEqual(module.rules, original, 'restored');
    });

    it(`${dialect}: a model that throws is told, and no rule runs without it`, () => {
      const sample = SAMPLES[dialect];
      const module = DIALECT_MODULES[dialect];
      const original = module.model;
      const errors: string[] = [];
      (module as { model: unknown }).model = () => {
        throw new Error('no model');
      };
      try {
        const a = analyzeTelling(sample, errors);
        assert.deepStrictEqual(errors, ['model: no model']);
        assert.deepStrictEqual(a.findings, []);
      } finally {
        (module as { model: unknown }).model = original;
      }
    });
  }
});
