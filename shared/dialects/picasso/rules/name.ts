import type { Rule } from '../../../engine';
import type { Finding } from '../../../types';
import { NAME_PATTERN } from '../constants';
import { finding, quote, roleRoot, snakeCase, stringValue } from './util';

/** A snake_case name for the replacement: from the name, else from the file name. */
function snakeReplacement(name: string, fileStem: string): string | undefined {
  for (const candidate of [snakeCase(name), snakeCase(fileStem)]) if (NAME_PATTERN.test(candidate)) return candidate;
  return undefined;
}

/** picasso/name-format, picasso/name-mismatch and picasso/invocation-mismatch. */
export const nameRules: Rule = {
  ids: ['picasso/name-format', 'picasso/name-mismatch', 'picasso/invocation-mismatch'],
  check(ctx) {
    const root = roleRoot(ctx);
    if (!root) return [];
    const out: Finding[] = [];
    const name = stringValue(root, 'name');
    if (name && !NAME_PATTERN.test(name.value)) {
      const replacement = snakeReplacement(name.value, ctx.fileStem);
      const shown = name.value ? quote(name.value) : 'An empty `name`';
      out.push(
        finding(
          ctx,
          'picasso/name-format',
          name.node,
          `${shown} is not a snake_case identifier (lower-case letters and digits joined by single underscores, starting with a letter), so Picasso cannot use it as the role's stable name; ${replacement ? `rename it to \`${replacement}\`` : 'rename it in snake_case'}.`,
          replacement ? { replacement } : undefined,
        ),
      );
    }
    if (name && name.value && name.value !== ctx.fileStem) {
      out.push(
        finding(
          ctx,
          'picasso/name-mismatch',
          name.node,
          `The role is named ${quote(name.value)} but its file is ${quote(ctx.fileStem)}, so it is listed and spawned under a name that differs from its file; rename one of them so that they agree.`,
          { expected: ctx.fileStem, replacement: ctx.fileStem },
        ),
      );
    }
    const invocation = stringValue(root, 'invocation');
    if (invocation && name && name.value) {
      const expected = `@${name.value}`;
      if (invocation.value !== expected) {
        out.push(
          finding(
            ctx,
            'picasso/invocation-mismatch',
            invocation.node,
            `\`invocation\` is ${quote(invocation.value)}, but Picasso expects \`@\` followed by the role's name, so the role would be called by the wrong handle; write \`"${expected}"\`.`,
            // The plain value: quick fixes quote it, since `@` cannot start a plain YAML scalar.
            { expected, replacement: expected },
          ),
        );
      }
    }
    return out;
  },
};
