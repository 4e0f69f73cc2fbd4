/** Profy Experts analysed in-process: an Expert's text from its subagents, and what the engine makes of it. */
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { defaultLoadedConfig, parseConfig, type LoadedConfig } from '../../shared/config/config';
import { analyze, resolveAnalysis } from '../../shared/engine';
import type { ExpertModel } from '../../shared/dialects/profy/model';
import type { ResolvedDefinition } from '../../shared/types';

export const EXPERT_FILE = '/work/ws/bookkeeper.expert.json';

export function config(yaml?: string): LoadedConfig {
  if (yaml === undefined) return defaultLoadedConfig('/work/ws');
  const loaded = parseConfig(yaml, '/work/ws/.subagents.yaml', '/work/ws');
  assert.deepStrictEqual(loaded.findings, [], 'test configuration must be valid');
  return loaded;
}

/** The analysis of `text` as an Expert file, its resolution, and the model every Profy rule read. */
export function run(text: string, yaml?: string) {
  const ruleErrors: string[] = [];
  const analysis = analyze({
    text,
    path: EXPERT_FILE,
    root: '/work/ws',
    config: config(yaml),
    onRuleError: (rule, e) => ruleErrors.push(`${rule}: ${String(e)}`),
  });
  assert.deepStrictEqual(ruleErrors, [], 'no rule may throw');
  const resolution = resolveAnalysis(analysis, EXPERT_FILE);
  return {
    analysis,
    diagnostics: analysis.diagnostics,
    definitions: resolution?.definitions ?? [],
    model: analysis.context?.model as ExpertModel | undefined,
  };
}

export const of = (diagnostics: Diagnostic[], rule: string) => diagnostics.filter((d) => d.code === rule);
export const rules = (diagnostics: Diagnostic[]) => diagnostics.map((d) => String(d.code)).sort();

/** An Expert with a brief and a toolset, so only what a test adds fires. */
export function expert(subagents: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      name: 'bookkeeper',
      description: 'Books.',
      delegationBrief: 'Takes statements; returns ledgers.',
      tools: ['read', 'grep', 'glob', 'mcp__ledger__post_entry', 'mcp__ledger__list_accounts', 'delegate', 'Task'],
      ...extra,
      subagents,
    },
    null,
    2,
  );
}

export const sub = (name: unknown, tools?: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  description: 'Finds clauses.',
  system_prompt: 'Quote clauses.',
  ...(tools === undefined ? {} : { tools }),
  ...extra,
});

export function def(definitions: ResolvedDefinition[], name: string): ResolvedDefinition {
  const found = definitions.find((d) => d.name === name);
  assert.ok(found, `no definition named ${name}`);
  return found;
}
