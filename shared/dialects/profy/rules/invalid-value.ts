import type { ProfyRule, ProfyFinding } from '../util';
import { standardFixes } from '../../../fixes/plans';
import { findingOn, findingOnFirstLine } from '../../common';
import { describeProblem, validateNode, type SchemaProblem } from '../../../schema/validate';
import { pathOf } from '../../../text/tree';
import { REQUIRED_SUBAGENT_FIELDS } from '../constants';
import schema from '../../../../schemas/profy.schema.json';

/**
 * `profy/invalid-value`: a value of the wrong type or shape, from schemas/profy.schema.json.
 * Problems the drop rules own are left to them, so each problem is reported once:
 * - a `subagents` entry that is not an object: `profy/not-an-object`;
 * - a missing, empty or non-string `name`, `description` or `system_prompt`: `profy/missing-field`;
 * - a subagent `tools` that is not a list: `profy/tools-not-array`.
 * What remains: the root not an object (first line), Expert keys of the wrong type,
 * `subagents` not a list, non-string allowlist entries, `model` not a string, and an empty
 * `delegationPolicy` list (`data.replacement`: `"none"`, the policy with the same roster).
 */
export const invalidValue: ProfyRule = {
  ids: ['profy/invalid-value'],
  check(ctx) {
    const root = ctx.model.root;
    if (!root) return [];
    const out: ProfyFinding[] = [];
    for (const p of validateNode(schema, root)) {
      if (ownedByDropRule(p)) continue;
      if (isEmptyWhitelist(p)) {
        out.push(
          findingOn(
            ctx,
            'profy/invalid-value',
            p.node,
            'An empty `delegationPolicy` list is not one of the policies Profy defines (a whitelist names at least one Expert); write "none" for an empty roster.',
            { replacement: '"none"' },
          ),
        );
        continue;
      }
      const message = `${describeProblem(p)} ${consequence(p)}`;
      // The schema asks nothing of an object root as a whole (no `required`): a problem at the root is its type.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: so either half alone says the same
      const onRoot = p.node === root && root.kind !== 'object';
      out.push(
        onRoot
          ? findingOnFirstLine(ctx, 'profy/invalid-value', message)
          : findingOn(ctx, 'profy/invalid-value', p.node, message),
      );
    }
    return out;
  },
  // `[]` → `"none"`: the documented policy with the same (empty) roster.
  fixes: { 'profy/invalid-value': (req) => standardFixes(req) },
};

function isEmptyWhitelist(p: SchemaProblem): boolean {
  // Stryker disable next-line ConditionalExpression: the schema's only `minItems` is the top-level delegationPolicy's
  return p.keyword === 'minItems' && pathOf(p.node).length === 1 && pathOf(p.node)[0] === 'delegationPolicy';
}

function subagentPath(p: SchemaProblem): (string | number)[] | undefined {
  const path = pathOf(p.node);
  return path[0] === 'subagents' && typeof path[1] === 'number' ? path.slice(2) : undefined;
}

function ownedByDropRule(p: SchemaProblem): boolean {
  const rest = subagentPath(p);
  if (!rest) return false;
  if (rest.length === 0) return true; // not an object, or a required field missing
  // Stryker disable next-line ConditionalExpression: the required fields are strings, so their problems are never deeper
  if (rest.length === 1 && (REQUIRED_SUBAGENT_FIELDS as readonly (string | number)[]).includes(rest[0])) return true;
  return rest.length === 1 && rest[0] === 'tools';
}

function consequence(p: SchemaProblem): string {
  const rest = subagentPath(p);
  if (rest?.[0] === 'tools') return 'Such an entry never resolves to a tool; write the tool name as a string.';
  const path = pathOf(p.node);
  if (path.length === 0) return 'An Expert file holds one JSON object; wrap the keys in `{ }`.';
  if (path[0] === 'subagents' && path.length === 1)
    return 'Profy finds no subagents in it; make it a list of subagent objects.';
  if (path[0] === 'delegationPolicy')
    return 'Profy cannot tell which Experts to offer for delegation; use "none", "all" or a list of Expert names.';
  return 'Profy cannot use this value; change it to the expected type.';
}
