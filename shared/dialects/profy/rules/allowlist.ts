import type { ProfyRule, ProfyFinding } from '../util';

import { standardFixes, toolSuggestionFixes } from '../../../fixes/plans';
import { findingOn, quote } from '../../common';
import { nearestName } from '../../../catalog/catalog';
import { RESERVED_NAMES } from '../constants';
import { expandGlob } from '../glob';
import { nameList } from './util';

/**
 * `profy/reserved-tool`: an allowlist entry that is a reserved name (pass 1). Range: the
 * entry. `data.removable`.
 */
export const reservedTool: ProfyRule = {
  ids: ['profy/reserved-tool'],
  check(ctx) {
    const out: ProfyFinding[] = [];
    for (const s of ctx.model.subagents) {
      for (const e of s.entries) {
        if (e.kind !== 'reserved') continue;
        out.push(
          findingOn(
            ctx,
            'profy/reserved-tool',
            e.node,
            `${quote(e.text!)} is reserved for the main agent, so Profy never grants it to a subagent and this entry has no effect; remove it.`,
            { removable: true },
          ),
        );
      }
    }
    return out;
  },
  fixes: { 'profy/reserved-tool': (req) => standardFixes(req, { removePreferred: true }) },
};

/**
 * `profy/unresolved-tool`: an entry that grants no tool of the main toolset: a literal
 * name the toolset lacks (pass 3), or a glob that matches nothing, or only reserved
 * tools (pass 2). Silent while the toolset is unknown. Range: the entry.
 * `data.removable`; `data.replacement` (JSON text, quotes included) is the nearest tool,
 * or for a glob the pattern with its literal prefix corrected.
 */
export const unresolvedTool: ProfyRule = {
  ids: ['profy/unresolved-tool'],
  check(ctx) {
    const model = ctx.model;
    // Stryker disable next-line ConditionalExpression: against an unknown toolset no entry is unresolved either
    if (!model.toolset.known) return [];
    const grantable = model.toolset.tools.filter((t) => !RESERVED_NAMES.has(t));
    const prefixes = new PrefixCandidates(grantable);
    const out: ProfyFinding[] = [];
    for (const s of model.subagents) {
      for (const e of s.entries) {
        if (!e.unresolved) continue;
        const text = e.text!;
        const dropped = 'so Profy drops this entry without any error';
        let message: string;
        let suggestion: string | undefined;
        // Stryker disable next-line ConditionalExpression: only a glob has reserved matches (a literal's pass is pass 3)
        if (e.kind === 'glob' && e.reservedMatches.length) {
          message = `The glob ${quote(text)} matches only reserved tools (${nameList(e.reservedMatches)}), which are never granted to a subagent, so this entry grants nothing; remove it or name the tools the subagent needs.`;
        } else if (e.kind === 'glob') {
          suggestion = nearestGlob(text, grantable, prefixes);
          message = `The glob ${quote(text)} matches no tool of the main agent's toolset, ${dropped}; ${suggestion ? `did you mean ${quote(suggestion)}?` : 'fix the pattern (only `*` and `?` are special, and case counts) or remove it.'}`;
        } else {
          suggestion = text === '' ? undefined : nearestName(text, grantable);
          // Stryker disable next-line ConditionalExpression,StringLiteral: the message below never reads it for an empty entry
          const inCatalog = text !== '' && ctx.catalog.has(text) && !RESERVED_NAMES.has(text);
          message =
            text === ''
              ? `This empty entry names no tool, ${dropped}; remove it.`
              : inCatalog && !suggestion
                ? `${quote(text)} is a known tool, but the main agent's toolset does not have it, ${dropped}; a subagent only gets tools its main agent has, so enable the plugin that provides it on this Expert (and list it in the Expert's \`tools\`), or remove the entry.`
                : `${quote(text)} is not in the main agent's toolset, ${dropped}; ${suggestion ? `did you mean ${quote(suggestion)}?` : 'use a tool the main agent has, or remove the entry.'}`;
        }
        out.push(
          findingOn(ctx, 'profy/unresolved-tool', e.node, message, {
            removable: true,
            ...(suggestion ? { replacement: JSON.stringify(suggestion) } : {}),
          }),
        );
      }
    }
    return out;
  },
  fixes: { 'profy/unresolved-tool': (req) => toolSuggestionFixes(req) },
};

/** The tools' prefixes of each length, made once per length per check (not once per glob). */
class PrefixCandidates {
  private readonly byLength = new Map<number, Set<string>>();
  constructor(private readonly tools: readonly string[]) {}

  /**
   * The prefixes of length `prefix.length - 2` to `+ 2`, without `prefix` itself (lazily: the suggestion budget may
   * stop early).
   */
  *around(prefix: string): Generator<string> {
    // Stryker disable next-line MethodExpression: nearestName skips a candidate more than two characters shorter, uncounted
    for (let len = Math.max(1, prefix.length - 2); len <= prefix.length + 2; len++) {
      let set = this.byLength.get(len);
      // Stryker disable next-line ConditionalExpression: a cache; the same prefixes again
      if (!set) {
        set = new Set();
        // Stryker disable next-line ConditionalExpression: a shorter tool adds its whole name, which its own length adds too
        for (const t of this.tools) if (len <= t.length) set.add(t.slice(0, len));
        this.byLength.set(len, set);
      }
      for (const p of set) if (p !== prefix) yield p;
    }
  }
}

/** A glob whose literal prefix (before the first wildcard) is a near miss of a real tool's prefix. */
function nearestGlob(pattern: string, tools: readonly string[], prefixes: PrefixCandidates): string | undefined {
  const wildcard = pattern.search(/[*?]/);
  const prefix = pattern.slice(0, wildcard);
  if (prefix.length < 3) return undefined;
  const near = nearestName(prefix, prefixes.around(prefix));
  if (!near) return undefined;
  const fixed = near + pattern.slice(prefix.length);
  return expandGlob(fixed, tools)?.length ? fixed : undefined;
}
