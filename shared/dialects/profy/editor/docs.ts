/** Markdown for Profy's allowlist globs (hover and inlay hints), from what the allowlist resolution found. */
import { expansionLine, nameFence } from '../../../features/kit/tool-lines';

/** What a Profy glob matches, as the allowlist resolution found it. */
export interface GlobFacts {
  /** The main toolset is known. */
  known: boolean;
  /** The file's globs need more comparisons than the checker makes: this one was left unmatched. */
  unchecked: boolean;
  granted: readonly string[];
  reservedMatches: readonly string[];
}

/** A glob as a bold code span: bare, its `*` would read as Markdown emphasis (`*read*` shows as *read*). */
export const globTitle = (glob: string): string => `**\`${glob}\`**`;

/** Hover text for a Profy glob, with what it matches in the main toolset. */
export function globMarkdown(glob: string, facts: GlobFacts): string {
  return [
    `${globTitle(glob)} \u2014 Profy glob (\`*\` any run of characters, \`?\` one character)`,
    ...globMatchLines(facts),
  ].join('\n\n');
}

/** What a glob matches, as paragraphs (hover and the inlay hints' tooltip). */
export function globMatchLines(facts: GlobFacts): string[] {
  if (!facts.known)
    return [
      'The main agent toolset is unknown (no Expert `tools`, no `profy.mainTools`), so what it matches is unknown.',
    ];
  if (facts.unchecked)
    return [
      'Not matched here: this Expert\u2019s globs need more comparisons than the checker makes (`profy/unknown-toolset`); Profy still resolves it when it builds the subagents.',
    ];
  const lines = [expansionLine('Matches now', facts.granted, ' of the main toolset')];
  if (facts.reservedMatches.length)
    lines.push(`Reserved names it also matches are never granted: ${nameFence(facts.reservedMatches)}`);
  return lines;
}
