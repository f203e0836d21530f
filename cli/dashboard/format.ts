/** How the live views write times, rates and shares: one place, so the views agree. */

/** `m:ss`, or `h:mm:ss` from one hour. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = String(total % 60).padStart(2, '0');
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** `m:ss.s`: the clock with tenths of a second (dashboard ticks are half a second apart). */
export function formatTenths(ms: number): string {
  const tenths = Math.max(0, Math.floor(ms / 100)) % 10;
  return `${formatClock(ms)}.${tenths}`;
}

/** A fraction as a percentage with two decimals, e.g. `2.31%`. */
export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(2)}%`;
}

/** Seconds with one decimal, e.g. `12.5s`. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** A rate per second: one decimal below 100, none from 100, e.g. `12.5/s`, `1893/s`. */
export function formatRate(perSecond: number): string {
  return `${perSecond < 100 ? perSecond.toFixed(1) : Math.round(perSecond)}/s`;
}

/** A latency in ms: two decimals below 10, one below 100, none from 100, e.g. `3.10ms`. */
export function formatMs(ms: number): string {
  return `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : Math.round(ms)}ms`;
}
