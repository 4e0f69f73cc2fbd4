/**
 * The pages the MCP server serves: each rule's page (docs/rules/<id>.md) and each runtime's
 * document (docs/runtimes/<dialect>.md), read from the package (the npm package ships both).
 */
import * as fs from 'fs';
import * as path from 'path';
import { distance } from 'fastest-levenshtein';
import { RULES, isRuleId, type Dialect, type RuleMeta } from '../../shared';
import { describeError, readRegularFile } from '../../shared/node';
import { ToolError } from './workspace';

export const RULE_URI_PREFIX = 'subagents://rules/';
export const RUNTIME_URI_PREFIX = 'subagents://runtimes/';

/**
 * The package's docs/ folder: beside dist/ for the bundle (dist/cli-main.js), three levels up
 * for the compiled sources (out/cli/mcp/docs.js).
 */
function docsFolder(): string {
  for (const up of ['..', '../..', '../../..']) {
    const candidate = path.resolve(__dirname, up, 'docs');
    if (fs.existsSync(path.join(candidate, 'rules'))) return candidate;
  }
  return path.resolve(__dirname, '..', 'docs');
}

let folder: string | undefined;

function readPage(relative: string): string {
  folder ??= docsFolder();
  try {
    return readRegularFile(path.join(folder, relative));
  } catch (e) {
    throw new Error(`the page ${relative} cannot be read from ${folder}: ${describeError(e)}`);
  }
}

/** A rule's page, Markdown. */
export function rulePage(rule: RuleMeta): string {
  return readPage(`rules/${rule.id}.md`);
}

/** A runtime's document, Markdown. */
export function runtimePage(dialect: Dialect): string {
  return readPage(`runtimes/${dialect}.md`);
}

/**
 * The rule `given` names: its id, or a name that only one group has (`name-mismatch` is
 * ambiguous, `no-tools` is not). ToolError with the closest ids otherwise.
 */
export function findRule(given: string): RuleMeta {
  const id = given.trim();
  if (isRuleId(id)) return RULES.find((r) => r.id === id)!;
  const byName = RULES.filter((r) => r.id.endsWith(`/${id}`));
  if (byName.length === 1) return byName[0];
  const wanted = id.toLowerCase();
  const closeness = (r: RuleMeta) =>
    Math.min(distance(wanted, r.id), distance(wanted, r.id.slice(r.id.indexOf('/') + 1)));
  const closest = (byName.length ? byName : RULES)
    .map((r) => ({ id: r.id, d: byName.length ? 0 : closeness(r) }))
    .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
    .slice(0, byName.length || 3)
    .map((r) => `\`${r.id}\``);
  throw new ToolError(
    `${JSON.stringify(given.slice(0, 200))} is not a rule id; did you mean ${closest.join(', ')}? (every rule: the subagents://rules/ resources)`,
  );
}
