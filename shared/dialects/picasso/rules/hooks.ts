import { nearestName } from '../../../catalog/catalog';
import { getProperty } from '../../../text/tree';
import { findingOn, quote } from '../../common';
import { normalizingFixes } from '../../../fixes/plans';
import { HOOKS_SCALARS } from '../constants';
import { kindName, type PicassoRule, type PicassoFinding } from '../util';

const SHAPE = '`none`, `all`, or a mapping `{ skip: [<hook name>, ...] }`';

/** picasso/invalid-hooks: `hooks` must be `none`, `all` or `{ skip: [names] }`. */
export const invalidHooks: PicassoRule = {
  ids: ['picasso/invalid-hooks'],
  check(ctx) {
    const root = ctx.model.root;
    const property = getProperty(root, 'hooks');
    if (!property) return [];
    const node = property.value;
    const out: PicassoFinding[] = [];
    const report = (at: typeof node, message: string, data?: Record<string, unknown>) =>
      out.push(findingOn(ctx, 'picasso/invalid-hooks', at, message, data));
    if (node.kind === 'string') {
      const value = String(node.value);
      if ((HOOKS_SCALARS as readonly string[]).includes(value)) return [];
      const normalized = (HOOKS_SCALARS as readonly string[]).includes(value.trim().toLowerCase());
      const replacement = normalized ? value.trim().toLowerCase() : nearestName(value.toLowerCase(), HOOKS_SCALARS, 2);
      report(
        node,
        `\`hooks\` is ${quote(value)}, but Picasso reads only ${SHAPE}, so the role's hook opt-outs cannot be applied; ${replacement ? `did you mean \`${replacement}\`?` : 'use one of those forms.'}`,
        replacement ? { replacement, normalized } : undefined,
      );
      return out;
    }
    if (node.kind !== 'object') {
      report(
        node,
        `\`hooks\` is ${kindName(node.kind)}, but Picasso reads only ${SHAPE}, so the role's hook opt-outs cannot be applied; use one of those forms.`,
      );
      return out;
    }
    const properties = node.properties ?? [];
    const hasSkip = properties.some((p) => p.key === 'skip');
    for (const p of properties) {
      if (p.key === 'skip') continue;
      const rename = !hasSkip && nearestName(p.key.toLowerCase(), ['skip'], 2) ? 'skip' : undefined;
      report(
        p.keyNode,
        `${quote(p.key)} is not allowed under \`hooks\`, whose only key is \`skip\` (a list of the hook names the role does not fire), so Picasso cannot apply it; ${rename ? 'rename it to `skip`.' : 'remove it.'}`,
        rename ? { replacement: rename } : { removable: true },
      );
    }
    const skip = properties.find((p) => p.key === 'skip');
    if (!skip) {
      if (!properties.length)
        report(
          node,
          `\`hooks\` is an empty mapping, but Picasso expects ${SHAPE}; add \`skip:\` with the hook names to opt out of, or write \`hooks: all\`.`,
        );
      return out;
    }
    const list = skip.value;
    if (list.kind !== 'array') {
      report(
        list,
        `\`hooks.skip\` is ${kindName(list.kind)}, but Picasso expects a list of hook names, so no hook opt-out can be applied; write it as a list, such as \`skip: [post-act]\`.`,
      );
      return out;
    }
    for (const item of list.items ?? []) {
      if (item.kind === 'string' && String(item.value).trim()) continue;
      report(
        item,
        `A \`hooks.skip\` entry must be a hook name, but this one is ${item.kind === 'string' ? 'an empty string' : kindName(item.kind)}, so Picasso cannot tell which hook to skip; write the hook's name.`,
        { removable: true },
      );
    }
    return out;
  },
  // Only a change of case or spacing is preferred: `some` is not `none` for certain.
  fixes: { 'picasso/invalid-hooks': normalizingFixes },
};
