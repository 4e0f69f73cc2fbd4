import { posix } from 'path';
import type { FixPlan } from '../../../types';
import { findingOn, quote } from '../../common';
import { replaceValueEdit } from '../../../fixes/edits';
import { NAME_PATTERN } from '../constants';
import type { PicassoContext, PicassoFix, PicassoRule, PicassoFinding } from '../util';

/**
 * picasso/name-format, picasso/name-mismatch and picasso/invocation-mismatch. Their fixes
 * agree on one name (the model's `targetName`): each preferred fix renames the role to it
 * everywhere at once (name, invocation and, when the file name is not a valid name, the file).
 */
export const nameRules: PicassoRule = {
  ids: ['picasso/name-format', 'picasso/name-mismatch', 'picasso/invocation-mismatch'],
  check(ctx) {
    const { name, invocation, targetName } = ctx.model;
    // Stryker disable next-line ConditionalExpression: without a mapping the model has no name or invocation
    if (!ctx.model.root) return [];
    const out: PicassoFinding[] = [];
    if (name && !NAME_PATTERN.test(name.value)) {
      const shown = name.value ? quote(name.value) : 'An empty `name`';
      out.push(
        findingOn(
          ctx,
          'picasso/name-format',
          name.node,
          `${shown} is not a snake_case identifier (lower-case letters and digits joined by single underscores, starting with a letter), so Picasso cannot use it as the role's stable name; ${targetName ? `rename it to \`${targetName}\`` : 'rename it in snake_case'}.`,
          targetName ? { replacement: targetName } : undefined,
        ),
      );
    }
    if (name && name.value && name.value !== ctx.fileStem) {
      out.push(
        findingOn(
          ctx,
          'picasso/name-mismatch',
          name.node,
          `The role is named ${quote(name.value)} but its file is ${quote(ctx.fileStem)}, so it is listed and spawned under a name that differs from its file; rename one of them so that they agree.`,
          { expected: ctx.fileStem, ...(targetName ? { replacement: targetName } : {}) },
        ),
      );
    }
    if (invocation && name && name.value) {
      const expected = `@${name.value}`;
      if (invocation.value !== expected) {
        // Say what the fixes will write: with a name that changes too, the handle follows the new name.
        const advice =
          targetName && targetName !== name.value
            ? `rename the role to \`${targetName}\` and write \`"@${targetName}"\``
            : `write \`"${expected}"\``;
        out.push(
          findingOn(
            ctx,
            'picasso/invocation-mismatch',
            invocation.node,
            `\`invocation\` is ${quote(invocation.value)}, but Picasso expects \`@\` followed by the role's name, so the role would be called by the wrong handle; ${advice}.`,
            { expected },
          ),
        );
      }
    }
    return out;
  },
  fixes: {
    'picasso/name-format': (req) => withRename(req, []),
    'picasso/name-mismatch': (req) => withRename(req, renameFileInstead(req)),
    'picasso/invocation-mismatch': (req) => {
      const { name, invocation } = req.ctx.model;
      const own: FixPlan[] =
        name && invocation
          ? [
              {
                title: `Set invocation to \`@${name.value}\``,
                edits: [replaceValueEdit(req.ctx, invocation.node.start, invocation.node.end, `"@${name.value}"`)],
              },
            ]
          : [];
      // When the name itself will change, setting the invocation alone would only fire again.
      if (name && req.ctx.model.targetName === name.value) return own.map((f) => ({ ...f, preferred: true }));
      return withRename(req, own);
    },
  },
};

/** "Rename role to X" (preferred), then the rule's own alternatives. */
function withRename(req: PicassoFix, alternatives: FixPlan[]): FixPlan[] {
  const plan = renameRolePlan(req.ctx);
  // Stryker disable next-line MethodExpression,ConditionalExpression: no alternative is titled "Rename role to …" (they set the invocation or rename the file)
  return plan ? [plan, ...alternatives.filter((a) => a.title !== plan.title)] : alternatives;
}

/** Sets `name` and `invocation` to the target name and, when the file name is not it, renames the file. */
export function renameRolePlan(ctx: PicassoContext): FixPlan | undefined {
  const { name, invocation, targetName } = ctx.model;
  if (!targetName) return undefined;
  const edits = [];
  const places: string[] = [];
  if (name && name.value !== targetName) {
    edits.push(replaceValueEdit(ctx, name.node.start, name.node.end, targetName));
    places.push('name');
  }
  if (invocation && invocation.value !== `@${targetName}`) {
    edits.push(replaceValueEdit(ctx, invocation.node.start, invocation.node.end, `"@${targetName}"`));
    places.push('invocation');
  }
  const rename =
    ctx.fileStem !== targetName
      ? { newPath: posix.join(posix.dirname(ctx.path), `${targetName}${ctx.model.extension}`) }
      : undefined;
  if (rename) places.push('file');
  // Stryker disable next-line ConditionalExpression: only F2 to the same name has nothing to change, and it reads no title
  if (!places.length) return undefined;
  return {
    title: `Rename role to \`${targetName}\` (${places.join(', ')})`,
    edits,
    ...(rename ? { rename } : {}),
    preferred: true,
  };
}

/** Keeps the name and renames the file after it (when the name is a valid one). */
function renameFileInstead(req: PicassoFix): FixPlan[] {
  const { name } = req.ctx.model;
  if (!name || !NAME_PATTERN.test(name.value) || name.value === req.ctx.model.targetName) return [];
  const file = `${name.value}${req.ctx.model.extension}`;
  return [
    {
      title: `Rename the file to \`${file}\``,
      edits: [],
      rename: { newPath: posix.join(posix.dirname(req.ctx.path), file) },
    },
  ];
}
