/**
 * How deep a JSON text nests, found by one pass over its brackets (strings skipped), without
 * parsing or recursing: a recorded body nested 100,000 levels deep would overflow the stack of
 * every recursive walk after JSON.parse (the body's secrets, its rewriting, the YAML written).
 */

/** Deepest nesting of a JSON body that the HAR import handles. */
export const MAX_JSON_DEPTH = 512;

/** True when `text` (JSON or not) opens more than `limit` arrays or objects at once. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
