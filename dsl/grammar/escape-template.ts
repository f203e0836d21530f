/**
 * The inverse of parseTemplate for plain text: recorded urls, headers and bodies (HAR import) are
 * literal, so any "{{" in them must not open a placeholder. The placeholder grammar has one escape,
 * "\{{" → "{{", so every "{{" is written "\{{", left to right:
 *
 *   escapeTemplate(s) = s with each non-overlapping "{{" (scanning left to right) replaced by "\{{"
 *
 * Why that is enough: after the rewrite, every "{{" in the text is preceded by the "\" we added,
 * so the parser reads each as an escape before it could open a placeholder; a "\" that was in the
 * text already is followed by "\" or by something other than "{{", so it stays literal; a third
 * "{" of a run ("{{{") is left alone and is literal because no "{{" follows it.
 * parseTemplate(escapeTemplate(s)) is s itself (a property test checks it).
 */

/** Writes literal text as a template that renders exactly that text. */
export function escapeTemplate(text: string): string {
  return text.includes('{{') ? text.replaceAll('{{', '\\{{') : text;
}
