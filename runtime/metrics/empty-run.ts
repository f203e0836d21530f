/**
 * No silent success (docs/reports.md, "A run that did nothing"): a run that sent no request, none
 * of whose requests succeeded, or all of whose iterations failed tells nobody anything about the
 * target, so it fails (exit 1, SPEC §7.1 "another error occurred") with a line naming the cause,
 * whether thresholds were set or not.
 */
import type { RunResult } from './run-result.js';

/** Why the run proves nothing (a line for stderr, after `the run failed: `); undefined: it does. */
export function emptyRunCause(result: RunResult): string | undefined {
  if (result.total === 0) return `no request was sent${nothingSentBecause(result)}`;
  if (result.successes === 0)
    return `none of its ${result.total} requests succeeded (${topCounts(result.errors)})`;
  if (result.iterations > 0 && result.iterations_failed >= result.iterations)
    return `every one of its ${result.iterations} iterations failed (${topCounts(result.iteration_errors)})`;
  return undefined;
}

/** What the result says kept the requests from being sent, when it says anything. */
function nothingSentBecause(result: RunResult): string {
  const causes: string[] = [];
  if (result.iterations_failed > 0)
    causes.push(
      `${result.iterations_failed} of ${result.iterations} iterations failed (${topCounts(result.iteration_errors)})`,
    );
  if (result.unsent > 0)
    causes.push(`${result.unsent} unsent (${topCounts(result.unsent_causes)})`);
  if (causes.length === 0 && result.iterations > 0)
    causes.push(`its ${result.iterations} iterations made no request`);
  if (result.iterations === 0) causes.push('no iteration started');
  return `: ${causes.join('; ')}`;
}

/** The three largest counts, `kind: n`, largest first. */
function topCounts(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const shown = entries.slice(0, 3).map(([key, n]) => `${key}: ${n}`);
  if (entries.length > 3) shown.push(`${entries.length - 3} more`);
  return shown.length === 0 ? 'no cause recorded' : shown.join(', ');
}
