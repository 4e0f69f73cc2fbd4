import { posix } from 'path';
import { relativeInside, toPosix } from '../../../files';
import { findingOn, quote } from '../../common';
import type { PicassoRule } from '../util';

/**
 * The project a role file belongs to: the folder holding its `.picasso/agents/` or
 * `apps/cli/agents/` folder; a role found elsewhere (through `files:`) belongs to its own folder.
 */
export function roleProject(path: string): string {
  const dir = posix.dirname(toPosix(path));
  // Stryker disable next-line Regex: a lazy match from the first character finds the same folder without the anchor
  const m = /^(.*?)\/(?:\.picasso\/agents|apps\/cli\/agents)$/.exec(dir);
  return m ? m[1] || '/' : dir;
}

/**
 * picasso/duplicate-role: another role file of the same project declares the same `name`
 * (`.picasso/agents/x.md` and `apps/cli/agents/x.yaml`, or `x.yaml` and `x.yml` of one folder).
 * Which one the runtime uses is not documented, so both are reported, each naming the other.
 */
export const duplicateRole: PicassoRule = {
  ids: ['picasso/duplicate-role'],
  check(ctx) {
    const name = ctx.model.name;
    const same = name?.value ? ctx.workspace?.byName('picasso', name.value) : undefined;
    if (!name || !same) return [];
    const project = roleProject(ctx.path);
    const others = same
      .filter((d) => toPosix(d.path) !== ctx.path && roleProject(d.path) === project)
      .map((d) => relativeInside(project, toPosix(d.path)) ?? d.path);
    if (!others.length) return [];
    const where =
      others.slice(0, 3).map(quote).join(', ') + (others.length > 3 ? ` and ${others.length - 3} more` : '');
    return [
      findingOn(
        ctx,
        'picasso/duplicate-role',
        name.node,
        `Another role file of this project, ${where}, is also named ${quote(name.value)}, and which of them Picasso uses is not documented; rename one of the roles (or remove the copy) so that each name is declared once.`,
        { others },
      ),
    ];
  },
};
