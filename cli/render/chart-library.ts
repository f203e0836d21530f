/**
 * The chart library inlined into the HTML report: uPlot (small, fast canvas charts, MIT), its
 * minified browser build and stylesheet read from node_modules once, the first time a report
 * needs them, so that runs without `--html` never touch the files. Inlining keeps the report one
 * file that opens offline. A `</script` or `</style` inside either text would end its element
 * early; uPlot has none, and a version that did would fail here, loudly, not in a browser.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The library's browser script and stylesheet, as text. */
export interface ChartLibrary {
  readonly name: string;
  readonly script: string;
  readonly style: string;
}

const require = createRequire(import.meta.url);
let cached: ChartLibrary | undefined;

function read(specifier: string, closing: RegExp): string {
  const text = readFileSync(require.resolve(specifier), 'utf8');
  if (closing.test(text)) throw new Error(`${specifier} contains ${closing.source}: cannot inline`);
  return text;
}

/** uPlot's script and stylesheet (read on the first call, then kept). */
export function loadChartLibrary(): ChartLibrary {
  cached ??= {
    name: 'uPlot',
    script: read('uplot/dist/uPlot.iife.min.js', /<\/script/i),
    style: read('uplot/dist/uPlot.min.css', /<\/style/i),
  };
  return cached;
}
