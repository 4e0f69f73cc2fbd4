/** "Did you mean": the closest candidate within an edit distance. */
import { distance } from 'fastest-levenshtein';

/**
 * Comparisons left for suggestions in the analysis under way. A file with 40,000 unknown
 * names against a catalog of 40,000 tools would otherwise compare every pair (minutes);
 * past the budget, names simply get no suggestion. Outside an analysis there is no limit.
 */
let comparisonsLeft = Infinity;

/** Runs `fn` (synchronous) with at most `comparisons` distance computations for suggestions. */
export function withSuggestionBudget<T>(comparisons: number, fn: () => T): T {
  const previous = comparisonsLeft;
  comparisonsLeft = comparisons;
  try {
    return fn();
  } finally {
    comparisonsLeft = previous;
  }
}

export function nearestName(name: string, candidates: Iterable<string>, maxDistance = 2): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) > maxDistance) continue;
    if (comparisonsLeft-- <= 0) return undefined;
    const d = distance(name, candidate);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best; // only set within maxDistance
}
