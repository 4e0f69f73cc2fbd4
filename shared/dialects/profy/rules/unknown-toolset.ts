import type { ProfyRule } from '../util';
import { findingOnFirstLine } from '../../common';

/**
 * `profy/unknown-toolset`: neither the Expert's `tools` nor `profy.mainTools` gives the main
 * agent's toolset, and some allowlist entry would need it to be checked (an Expert without
 * subagents, or whose allowlists hold only reserved names, loses nothing). One finding, on
 * the first line.
 */
export const unknownToolset: ProfyRule = {
  ids: ['profy/unknown-toolset'],
  check(ctx) {
    const model = ctx.model;
    if (!model.subagents.some((s) => s.entries.some((e) => e.unchecked))) return [];
    if (model.toolset.known) {
      // Known, but the file holds more globs against more tools than are matched here.
      return [
        findingOnFirstLine(
          ctx,
          'profy/unknown-toolset',
          "This Expert's allowlists hold more globs against a larger toolset than the checker matches (a few million comparisons), so the remaining globs are not checked and the subagents' tool sets cannot all be shown; Profy still resolves them when it builds the subagents.",
        ),
      ];
    }
    return [
      findingOnFirstLine(
        ctx,
        'profy/unknown-toolset',
        "The main agent's toolset is unknown (the Expert has no `tools` list and `.subagents.yaml` sets no `profy.mainTools`), so no allowlist entry can be checked against it and the subagents' tool sets cannot be shown; add the Expert's `tools` or set `profy.mainTools`.",
      ),
    ];
  },
};
