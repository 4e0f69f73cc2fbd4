import { describeProblem, validateNode, type SchemaProblem } from '../../../schema/validate';
import { findingOn } from '../../common';
import { skeletonFixes } from '../../../fixes/plans';
import { picassoSkeleton } from '../skeleton';
import type { PicassoRule, PicassoFinding } from '../util';
import schema from '../../../../schemas/picasso.schema.json';

/** Keys whose problems other rules own (picasso/invalid-memory, picasso/invalid-hooks). */
const OWNED_ELSEWHERE = new Set(['memory', 'hooks']);

const FIX: Record<string, string> = {
  name: 'write the name as a string, such as `name: security_auditor`',
  invocation: 'write it as a quoted string, such as `invocation: "@security_auditor"`',
  model: 'write the model route as a string',
  tools: 'write a list of tool names, such as `tools: [read_file, grep]`',
  deny: 'write a list of tool names, such as `deny: [edit_file]`',
  max_steps: 'give a whole number of 1 or more, such as `max_steps: 30`',
  max_depth: 'give a whole number of 0 or more, such as `max_depth: 0`',
  output_schema: 'name the result schema with a string (or describe it with a mapping)',
  description: 'write a one-line string',
  when_to_use: 'write a string',
  system_prompt: 'write the instructions as a string, for example a `|` block',
};

function describe(p: SchemaProblem, key: string): string {
  // Stryker disable next-line ConditionalExpression: the schema's only minimums are these two
  if (p.keyword === 'minimum' && (key === 'max_steps' || key === 'max_depth')) {
    return `\`${p.label}\` is ${JSON.stringify(p.node.value)}, below its minimum of ${String(p.params.limit)}.`;
  }
  // Stryker disable next-line ConditionalExpression: only a `type` problem has a `type` parameter
  if (p.keyword === 'type' && p.params.type === 'integer' && p.node.kind === 'number') {
    return `\`${p.label}\` is ${JSON.stringify(p.node.value)}, not a whole number.`;
  }
  return describeProblem(p);
}

/** picasso/invalid-value: a non-mapping document, or a value of the wrong type or range (JSON Schema). */
export const invalidValue: PicassoRule = {
  ids: ['picasso/invalid-value'],
  check(ctx) {
    const root = ctx.file.root;
    if (!root || root.kind !== 'object') {
      // A parse that failed has its syntax/* finding, and the shape it left is not the author's: do not pile on.
      // Stryker disable next-line ConditionalExpression: the engine runs no rule on a file with syntax findings
      if (ctx.file.syntax.length) return [];
      const what =
        !root || root.kind === 'null'
          ? 'empty'
          : root.kind === 'array'
            ? 'a list'
            : `a single ${root.kind === 'unknown' ? 'value' : root.kind}`;
      return [
        {
          rule: 'picasso/invalid-value',
          range: ctx.file.source.firstLine(),
          message: `The role file is ${what}, but Picasso reads a role as a YAML mapping of keys (\`name\`, \`invocation\`, \`model\`, \`tools\`, ...), so it cannot load it; write the role's keys at the top level.`,
          // Nothing written yet: the skeleton fixes it.
          ...(what === 'empty' ? { data: { empty: true } } : {}),
        },
      ];
    }
    const out: PicassoFinding[] = [];
    for (const p of validateNode(schema, root)) {
      const key = p.label.split(/[.[]/)[0];
      if (OWNED_ELSEWHERE.has(key) || p.node === root) continue;
      // Stryker disable next-line StringLiteral: every key the schema constrains has its advice in FIX
      const fix = FIX[key] ?? 'correct the value';
      out.push(
        findingOn(
          ctx,
          'picasso/invalid-value',
          p.node,
          `${describe(p, key).replace(/\.$/, '')}, so Picasso cannot load the role; ${fix}.`,
          { key, keyword: p.keyword },
        ),
      );
    }
    return out;
  },
  fixes: { 'picasso/invalid-value': (req) => (req.data.empty ? skeletonFixes(req, picassoSkeleton) : []) },
};
