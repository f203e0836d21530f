/**
 * "Did you mean" suggestions for grammars (metrics, aggregates, built-ins) and the config loader
 * (unknown keys, unknown BARRAGE_* variables).
 *
 * Distance is the optimal-string-alignment variant of Levenshtein: insert, delete, substitute and
 * swap two neighbours each cost 1, because "duartion" is one slip, not two. Comparison ignores
 * case, so "HTTP_REQ_DURATION" suggests "http_req_duration".
 *
 * A guess is offered only when distance <= min(2, max(1, floor(length / 3))) of the word: one slip
 * in a word of up to five characters, two in a longer one. Beyond that a suggestion is more noise
 * than help ("mean" is not a typo of "max").
 */

/** Words longer than this get no suggestion: the O(n·m) table would cost more than it helps. */
const MAX_WORD = 64;

/** The candidate nearest to word within the allowed distance (first one wins a tie), or undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  if (word.length === 0 || word.length > MAX_WORD) return undefined;
  const limit = Math.min(2, Math.max(1, Math.floor(word.length / 3)));
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - word.length) >= bestDistance) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Optimal string alignment distance, with d[i][j] = distance between a[0..i) and b[0..j):
 *   d[i][j] = min(d[i-1][j] + 1, d[i][j-1] + 1, d[i-1][j-1] + (a[i-1] ≠ b[j-1]),
 *                 d[i-2][j-2] + 1 when a[i-1] = b[j-2] and a[i-2] = b[j-1])
 * Three rows are enough: the recurrence looks back at most two rows.
 */
export function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current.push(d);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
