/**
 * Think times from a recording: how long the user paused after each response before the next
 * kept request started (startedDateTime + time of one entry, to startedDateTime of the next).
 * Gaps under MIN_THINK_MS are the browser's own work (parsing, running scripts, loading in
 * parallel), not a person reading: they give no pause. A pause is written on the endpoint (a flow
 * step is an endpoint, docs/configuration.md), so an endpoint recorded several times pauses for
 * its recorded pause, or a range from the shortest to the longest of them. `scale` multiplies
 * every pause (0.5 halves them; 0 turns them off).
 */
import type { HarEntry } from './har-schema.js';

/** Shortest gap taken for a person's pause, in milliseconds. */
export const MIN_THINK_MS = 1000;

/** The pause after each entry before the next one, in ms (undefined: none, or not recorded). */
export function recordedPauses(entries: readonly HarEntry[]): (number | undefined)[] {
  return entries.map((entry, i) => {
    const next = entries[i + 1];
    const start = timeOf(entry);
    const nextStart = next === undefined ? undefined : timeOf(next);
    if (start === undefined || nextStart === undefined) return undefined;
    const gap = nextStart - (start + Math.max(entry.time ?? 0, 0));
    return gap >= MIN_THINK_MS ? gap : undefined;
  });
}

/** An endpoint's `think` from its recorded pauses: "2.4s", "1.2s-4s", or undefined for none. */
export function thinkOf(pauses: readonly number[], scale: number): string | undefined {
  if (pauses.length === 0 || scale <= 0) return undefined;
  const scaled = pauses.map((p) => Math.max(1, Math.round((p * scale) / 100) * 100));
  const low = Math.min(...scaled);
  const high = Math.max(...scaled);
  return low === high ? duration(low) : `${duration(low)}-${duration(high)}`;
}

/** "1.5s" or "200ms": a duration barrage reads. */
export function duration(ms: number): string {
  return ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
}

function timeOf(entry: HarEntry): number | undefined {
  if (entry.startedDateTime === undefined) return undefined;
  const time = Date.parse(entry.startedDateTime);
  return Number.isNaN(time) ? undefined : time;
}
