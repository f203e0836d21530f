/**
 * Lines of the dashboard as styled spans, so that layout measures and cuts plain text and color
 * is applied last (or not at all: NO_COLOR). Width is counted in code points: every glyph the
 * dashboard draws (box and block elements, ✓ ✗ …) takes one cell; a user's endpoint name with
 * double-width characters may overhang, which the `\e[K` after each line cleans up.
 */

/** The styles the dashboard uses (SGR attributes). */
export type Style = 'bold' | 'dim' | 'inverse' | 'green' | 'red' | 'yellow' | 'cyan' | 'magenta';

/** A run of text in one style. */
export interface Span {
  readonly text: string;
  readonly style?: Style | undefined;
}

/** One screen line. */
export type Line = readonly Span[];

const SGR: Readonly<Record<Style, string>> = {
  bold: '1',
  dim: '2',
  inverse: '7',
  green: '32',
  red: '31',
  yellow: '33',
  cyan: '36',
  magenta: '35',
};

/** Styles that stay when colors are off (NO_COLOR allows attributes such as bold and inverse). */
const ATTRIBUTES: ReadonlySet<Style> = new Set<Style>(['bold', 'dim', 'inverse']);

/** A span. */
export function span(text: string, style?: Style): Span {
  return style === undefined ? { text } : { text, style };
}

/** Width in cells (code points) of a text. */
export function textWidth(text: string): number {
  let width = 0;
  for (const _ of text) width++;
  return width;
}

/** Width in cells of a line. */
export function lineWidth(line: Line): number {
  let width = 0;
  for (const s of line) width += textWidth(s.text);
  return width;
}

/** `text` cut to `width` cells, ending with `…` when cut. */
export function cut(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  return Array.from(text)
    .slice(0, width - 1)
    .join('')
    .concat('…');
}

/** `text` padded with spaces (or cut) to exactly `width` cells; right-aligned when asked. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cutText = cut(text, width);
  const pad = ' '.repeat(Math.max(0, width - textWidth(cutText)));
  return align === 'left' ? cutText + pad : pad + cutText;
}

/** The line cut to at most `width` cells (the last visible cell becomes `…` when cut). */
export function fitLine(line: Line, width: number): Line {
  if (lineWidth(line) <= width) return line;
  const out: Span[] = [];
  let left = width;
  for (const s of line) {
    if (left <= 0) break;
    const w = textWidth(s.text);
    if (w < left) {
      out.push(s);
      left -= w;
      continue;
    }
    // The line goes on past this span, so its last visible cell says that it was cut.
    out.push(
      span(
        `${Array.from(s.text)
          .slice(0, left - 1)
          .join('')}…`,
        s.style,
      ),
    );
    break;
  }
  return out;
}

/** The line as terminal text: SGR codes around styled spans, or plain text without color. */
export function toAnsi(line: Line, color: boolean): string {
  let out = '';
  for (const s of line) {
    const style = s.style;
    if (style === undefined || (!color && !ATTRIBUTES.has(style))) out += s.text;
    else out += `\u001b[${SGR[style]}m${s.text}\u001b[0m`;
  }
  return out;
}
