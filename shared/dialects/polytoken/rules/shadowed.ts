import { posix } from 'path';
import { toPosix, relativeInside } from '../../../files';
import type { RuleContext } from '../../../types';
import { readable, type PolytokenRule } from '../util';
import { polytokenSettings } from '../settings';

const PROJECT_DIR = /(^|\/)\.polytoken\/subagents$/;

/** Where a folder stands in discovery order (later replaces earlier); undefined when it is not searched. */
interface Place {
  rank: number;
  /** The `.polytoken/subagents/` folder, for project definitions. */
  project?: string;
  global?: boolean;
}

function placeOf(ctx: RuleContext<unknown>, path: string): Place | undefined {
  const dir = posix.dirname(toPosix(path));
  if (ctx.loaded.globalDir && dir === ctx.loaded.globalDir) return { rank: 0, global: true };
  const extra = polytokenSettings(ctx.config).subagentDirs.map((d) => posix.resolve(ctx.loaded.dir, toPosix(d)));
  const index = extra.lastIndexOf(dir);
  if (index >= 0) return { rank: 1 + index };
  if (PROJECT_DIR.test(dir)) return { rank: 1 + extra.length, project: dir };
  return undefined;
}

/** A definition at `there` replaces one of the same name at `here`: it comes later in discovery order. */
function laterWins(ctx: RuleContext<unknown>, here: Place, there: Place): boolean {
  // Stryker disable next-line EqualityOperator: equal ranks are one folder (or two projects, excluded below)
  if (there.rank <= here.rank) return false;
  // A project shadows only what it loads: folders of its configuration, never another project.
  return !(there.project && (here.project || relativeInside(ctx.loaded.dir, there.project) === undefined));
}

/**
 * True when the definition at `later` replaces one of the same name at `earlier` (both paths absolute, posix), under
 * this file's configuration.
 */
export function replacesInDiscovery(ctx: RuleContext<unknown>, earlier: string, later: string): boolean {
  const here = placeOf(ctx, earlier);
  const there = placeOf(ctx, later);
  return !!here && !!there && laterWins(ctx, here, there);
}

/**
 * polytoken/shadowed: a later definition with the same name replaces this one. Each
 * project folder shadows the global folder and `subagentDirs` (those of projects under
 * this configuration's folder), never another project; global files are not reported.
 */
export const shadowedRule: PolytokenRule = {
  ids: ['polytoken/shadowed'],
  check(ctx) {
    const model = readable(ctx);
    if (!ctx.workspace || !model) return [];
    const name = model.registeredName;
    // Only same-name entries matter, and the index hands those alone: a workspace check stays linear.
    const entries = ctx.workspace.byName('polytoken', name) ?? [];
    // Stryker disable next-line ConditionalExpression: a shortcut on every keystroke; the loop finds no winner either
    if (!entries.length) return [];
    const here = placeOf(ctx, ctx.path);
    if (!here || here.global) return [];
    let winner: { path: string; rank: number } | undefined;
    for (const entry of entries) {
      // This file is among them: it does not come later than itself.
      const path = toPosix(entry.path);
      const there = placeOf(ctx, path);
      if (!there || !laterWins(ctx, here, there)) continue;
      if (!winner || there.rank > winner.rank || (there.rank === winner.rank && path < winner.path))
        winner = { path, rank: there.rank };
    }
    if (!winner) return [];
    const shown = relativeInside(ctx.loaded.dir, winner.path) ?? winner.path;
    const message = `Another definition named \`${name}\` comes later in Polytoken's discovery order, in ${shown}, and replaces this one, so this file is never used; rename one of them if both are meant to exist, or delete this one.`;
    const nameNode = model.name !== undefined ? model.nameNode : undefined;
    const range = nameNode ? ctx.file.source.range(nameNode.start, nameNode.end) : ctx.file.source.firstLine();
    return [{ rule: 'polytoken/shadowed', range, message, data: { by: winner.path } }];
  },
};
