/**
 * The HTML report's stylesheet: system fonts only (no web fonts: the report makes no request),
 * tabular figures so that columns of numbers line up, cards on a light background on screen, and
 * tables that wrap their text (threshold expressions, names, headings) before they scroll, with
 * less padding on narrow screens, so a phone-width page still shows every column of the
 * thresholds; a print stylesheet that drops the background, keeps each section whole where it fits, draws the
 * charts one per row at the width the chart script sets for print, and keeps the pass/fail colors.
 */

/** The report's CSS. */
export const REPORT_STYLE = `
:root {
  --fg: #1f2937; --muted: #6b7280; --line: #e5e7eb; --bg: #f3f4f6; --card: #ffffff;
  --pass: #15803d; --pass-bg: #dcfce7; --fail: #b91c1c; --fail-bg: #fee2e2; --warn-bg: #fef3c7;
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body {
  margin: 0; color: var(--fg); background: var(--bg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 24px; }
h1 { font-size: 22px; margin: 0 0 6px; display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
h2 { font-size: 16px; margin: 0 0 10px; }
h3 { font-size: 14px; margin: 14px 0 6px; color: var(--muted); }
.meta { color: var(--muted); margin: 0 0 16px; }
.meta span + span::before { content: " · "; }
.badge { font-size: 13px; font-weight: 600; padding: 3px 10px; border-radius: 999px; white-space: nowrap; }
.badge.pass { color: var(--pass); background: var(--pass-bg); }
.badge.fail { color: var(--fail); background: var(--fail-bg); }
.badge.none { color: var(--muted); background: var(--line); }
.notice { background: var(--warn-bg); border-radius: 6px; padding: 8px 12px; margin: 0 0 16px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px; margin: 0 0 16px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 12px; }
.tile { border-left: 3px solid #2563eb; padding: 2px 10px; }
.tile .label { color: var(--muted); font-size: 12px; }
.tile .value { font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.tile.bad { border-left-color: var(--fail); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(440px, 100%), 1fr)); gap: 16px; }
figure { margin: 0; min-width: 0; }
figcaption { font-weight: 600; margin-bottom: 6px; }
.plot { min-height: 40px; color: var(--muted); }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(320px, 100%), 1fr)); gap: 16px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.name { overflow-wrap: anywhere; min-width: 12em; }
td code { overflow-wrap: anywhere; }
th.num { white-space: normal; }
.scroll { max-width: 100%; }
@media (max-width: 640px) {
  header, main, footer { padding: 0 8px; }
  section { padding: 10px; }
  th, td { padding: 4px 5px; }
  td.name { min-width: 6em; }
}
tr.fail td { background: var(--fail-bg); }
.mark { font-weight: 700; white-space: nowrap; }
.mark.pass { color: var(--pass); }
.mark.fail { color: var(--fail); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; background: var(--bg); padding: 10px; border-radius: 6px; }
.empty { color: var(--muted); margin: 0; }
details.sample { border-top: 1px solid var(--line); padding: 6px 0; }
details.sample summary { cursor: pointer; font-weight: 600; overflow-wrap: anywhere; }
.exchange h3 { overflow-wrap: anywhere; }
h4 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); }
footer { color: var(--muted); font-size: 12px; padding-bottom: 24px; }
@media print {
  @page { margin: 12mm; }
  body { background: #fff; font-size: 12px; }
  header, main, footer { max-width: none; padding: 0; }
  section { border: none; padding: 0; margin: 0 0 14px; break-inside: avoid; }
  section.long { break-inside: auto; }
  .charts { grid-template-columns: 1fr; }
  figure { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .u-legend { font-size: 11px; }
}
`;
