import type { FixPlan } from '../../../types';
import { getProperty } from '../../../text/tree';
import { insertKeyLinesEdit, rangeOf } from '../../../fixes/edits';
import { RECOMMENDED_KEYS, REQUIRED_KEYS } from '../constants';
import type { PicassoContext, PicassoFix, PicassoRule, PicassoFinding } from '../util';
import { misspelledKeyFor } from './unknown-key';

/** What to write for each key, used in messages and by the "add the key" quick fix. */
export const KEY_EXAMPLES: Record<string, string> = {
  name: 'name: my_role',
  invocation: 'invocation: "@my_role"',
  model: 'model: <model route>',
  tools: 'tools: [read_file, grep]',
  max_steps: 'max_steps: 30',
  max_depth: 'max_depth: 0',
  output_schema: 'output_schema: <result schema name>',
  description: 'description: <one line about the role>',
  when_to_use: 'when_to_use: <when a parent should dispatch to it>',
};

const REQUIRED_WHY: Record<string, string> = {
  name: 'the role has no identifier',
  invocation: 'the role has no `@` handle to be called by',
  model: 'the role has no default model route',
  tools: 'the role has no tool allowlist',
  max_steps: 'the role has no step cap',
  max_depth: 'the role has no cap on nested subagents',
};

const RECOMMENDED_WHY: Record<string, string> = {
  output_schema: 'its parent gets results without a declared structure',
  description: 'without a one-line summary of what it does',
  when_to_use: 'a parent has no guidance on when to dispatch work to it',
};

/** picasso/missing-required and picasso/missing-recommended: one diagnostic per absent key, on the first line. */
export const missingKeys: PicassoRule = {
  ids: ['picasso/missing-required', 'picasso/missing-recommended'],
  check(ctx) {
    const root = ctx.model.root;
    // A file that does not parse may have lost keys to the error: syntax/yaml says what to fix first.
    if (!root || ctx.file.syntax.length) return [];
    const out: PicassoFinding[] = [];
    // The message suggests what the preferred fix writes, where there is one (`@helper`, not `@my_role`).
    const values = placeholders(ctx);
    const suggestion = (key: string) => (values[key].preferred ? `${key}: ${values[key].text}` : KEY_EXAMPLES[key]);
    for (const key of REQUIRED_KEYS) {
      if (getProperty(root, key)) continue;
      out.push({
        rule: 'picasso/missing-required',
        range: ctx.file.source.firstLine(),
        message: `The required key \`${key}\` is missing, so ${REQUIRED_WHY[key]} and Picasso will not load it; add \`${suggestion(key)}\`.`,
        data: { key, insertText: KEY_EXAMPLES[key] },
      });
    }
    for (const key of RECOMMENDED_KEYS) {
      if (getProperty(root, key)) continue;
      out.push({
        rule: 'picasso/missing-recommended',
        range: ctx.file.source.firstLine(),
        message: `The recommended key \`${key}\` is missing: the role still loads, but ${RECOMMENDED_WHY[key]}; add \`${KEY_EXAMPLES[key]}\`.`,
        data: { key, insertText: KEY_EXAMPLES[key] },
      });
    }
    return out;
  },
  fixes: {
    'picasso/missing-required': (req) => missingKeyFixes(req, REQUIRED_KEYS),
    'picasso/missing-recommended': (req) => missingKeyFixes(req, RECOMMENDED_KEYS),
  },
};

/**
 * The value each added key gets. Name and invocation agree with the name fixes (the model's
 * target name); only keys whose value can be derived or is the documented default are
 * preferred fixes: a model route or a tool list is the author's to choose.
 */
function placeholders(ctx: PicassoContext): Record<string, { text: string; preferred: boolean }> {
  const { name, targetName } = ctx.model;
  const roleName = targetName ?? (name?.value || 'my_role');
  return {
    name: { text: roleName, preferred: !!targetName },
    invocation: {
      text: JSON.stringify(`@${name && name.value === targetName ? name.value : roleName}`),
      preferred: !!targetName,
    },
    model: { text: 'default', preferred: false },
    tools: { text: '[read_file]', preferred: false },
    max_steps: { text: '30', preferred: true },
    max_depth: { text: '0', preferred: true },
    output_schema: { text: 'result', preferred: false },
    description: { text: '""', preferred: false },
    when_to_use: { text: '""', preferred: false },
  };
}

function missingKeyFixes(req: PicassoFix, all: readonly string[]): FixPlan[] {
  const { ctx } = req;
  const root = ctx.model.root;
  if (ctx.file.root && !root) return [];
  const key = typeof req.data.key === 'string' && all.includes(req.data.key) ? req.data.key : undefined;
  if (!key) return [];
  // A key written under another spelling: renaming it is the fix (the unknown-key fix does the same edit).
  const misspelled = root && misspelledKeyFor(root, key);
  if (misspelled)
    return [
      {
        title: `Rename \`${misspelled.key}\` to \`${key}\``,
        edits: [{ range: rangeOf(ctx, misspelled.keyNode.start, misspelled.keyNode.end), newText: key }],
        preferred: true,
      },
    ];
  const values = placeholders(ctx);
  const addKeys = (keys: string[]) => {
    const lines = keys.map((k) => `${k}: ${values[k].text}`);
    return root
      ? insertKeyLinesEdit(ctx, root, lines)
      : { range: rangeOf(ctx, 0, 0), newText: lines.join('\n') + '\n' };
  };
  const fixes: FixPlan[] = [];
  const edit = addKeys([key]);
  if (edit)
    fixes.push({ title: `Add \`${key}: ${values[key].text}\``, edits: [edit], preferred: values[key].preferred });
  const missing = all.filter((k) => !getProperty(root, k));
  if (missing.length > 1) {
    const allEdit = addKeys(missing);
    if (allEdit)
      fixes.push({
        title: `Add every missing ${all === REQUIRED_KEYS ? 'required' : 'recommended'} key (${missing.length})`,
        edits: [allEdit],
      });
  }
  return fixes;
}
