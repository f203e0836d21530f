// A bench result table: right-aligned columns, each [title, value of a row], printed.

/** Prints `rows` under the columns' titles. */
export function table(rows, columns) {
  const widths = columns.map(([title, get]) =>
    Math.max(title.length, ...rows.map((r) => String(get(r)).length)),
  );
  const line = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
  console.log(line(columns.map(([title]) => title)));
  for (const row of rows) console.log(line(columns.map(([, get]) => get(row))));
}
