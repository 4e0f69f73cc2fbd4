/** "Did you mean": the closest candidate within an edit distance. */
import { distance } from 'fastest-levenshtein';

export function nearestName(name: string, candidates: Iterable<string>, maxDistance = 2): string | undefined {
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) > maxDistance) continue;
    const d = distance(name, candidate);
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= maxDistance ? best : undefined;
}
