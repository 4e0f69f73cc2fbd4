import type { ProfyRule } from '../util';
import { findingOn, quote } from '../../common';
import { SKIPPED } from '../model';

/**
 * `profy/duplicate-name`: an earlier subagent of the file, or a builtin subagent from
 * `profy.builtinSubagents` (they come first), has the same name; the first wins. Every
 * earlier entry with that name counts, whether or not it loads itself. Names that are
 * reserved or malformed are left to their own rules. Range: the later name value.
 * `data.firstLine` (0-based) or `data.builtin` tells which one wins.
 */
export const duplicateName: ProfyRule = {
  ids: ['profy/duplicate-name'],
  check(ctx) {
    return ctx.model.subagents
      .filter((s) => s.duplicateOf && s.nameNode)
      .map((s) => {
        const first = s.duplicateOf!;
        if ('builtin' in first) {
          return findingOn(
            ctx,
            'profy/duplicate-name',
            s.nameNode!,
            `${quote(s.name!)} is already the name of a builtin subagent of the platform, which comes before the file's own and wins, so ${SKIPPED}; rename this one.`,
            { builtin: first.builtin },
          );
        }
        const line = ctx.file.source.position(first.subagent.node.start).line;
        return findingOn(
          ctx,
          'profy/duplicate-name',
          s.nameNode!,
          `${quote(s.name!)} is already the name of an earlier subagent (line ${line + 1}), and the first one wins, so ${SKIPPED}; rename one of them.`,
          { firstLine: line },
        );
      });
  },
};
