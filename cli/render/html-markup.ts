/**
 * HTML building blocks of the HTML report: escaping (text, and JSON inside a script element), and
 * the table and section markup every part of the report uses. Text is escaped here, once; markup
 * passes through only when marked as such (html()).
 */

/** Markup that is already HTML (not escaped again by the table builder). */
export interface Html {
  readonly html: string;
}

/** A table cell: text (escaped) or markup. */
export type Cell = string | Html;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` safe as HTML content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * JSON safe inside a `<script>` element: `<` becomes \u003c (no `</script>` or `<!--` can appear)
 * and U+2028/U+2029 are escaped too (legal in JSON, line breaks in older JavaScript).
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Marks markup as already HTML. */
export function html(markup: string): Html {
  return { html: markup };
}

function cell(c: Cell): string {
  return typeof c === 'string' ? escapeHtml(c) : c.html;
}

/** A table; `numeric` names the columns (by index) aligned right. */
export function table(
  head: readonly string[],
  rows: readonly (readonly Cell[])[],
  options: { numeric?: readonly number[]; id?: string; rowClass?: (i: number) => string } = {},
): string {
  const num = new Set(options.numeric ?? []);
  const cls = (i: number, extra = ''): string => {
    const names = [num.has(i) ? 'num' : '', extra].filter((n) => n !== '').join(' ');
    return names === '' ? '' : ` class="${names}"`;
  };
  const id = options.id === undefined ? '' : ` id="${options.id}"`;
  const headRow = head.map((h, i) => `<th${cls(i)}>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((row, r) => {
      const rc = options.rowClass?.(r) ?? '';
      const tds = row.map((c, i) => `<td${cls(i, i === 0 ? 'name' : '')}>${cell(c)}</td>`);
      return `<tr${rc === '' ? '' : ` class="${rc}"`}>${tds.join('')}</tr>`;
    })
    .join('\n');
  return `<div class="scroll"><table${id}><thead><tr>${headRow}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** A report section with its heading; `long` ones may break across printed pages. */
export function section(id: string, title: string, body: string, long = false): string {
  return `<section id="${id}"${long ? ' class="long"' : ''}>\n<h2>${escapeHtml(title)}</h2>\n${body}\n</section>`;
}

/** A chart's place: the chart script draws `name` into it (html-charts-script.ts). */
export function figure(name: string, caption: string, label: string): string {
  return [
    `<figure data-chart="${name}">`,
    `<figcaption>${escapeHtml(caption)}</figcaption>`,
    `<div class="plot" role="img" aria-label="${escapeHtml(label)}"><noscript>Charts need JavaScript.</noscript></div>`,
    '</figure>',
  ].join('\n');
}
