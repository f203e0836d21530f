/** The integer query and path parameters of the target routes (/delay/:ms, ?delay=, ?tick=). */

/** Parses a non-negative decimal integer within [min, max]; undefined otherwise. */
export function parseBoundedInt(text: string, min: number, max: number): number | undefined {
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}
