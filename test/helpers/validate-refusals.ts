// `barrage validate` on configurations it must refuse: for each, the error names file:line and the
// key, the exit code is 1, nothing is sent, no stack trace. In process (main() with its streams,
// which print what the binary prints): a refusal needs no process of its own; the e2e files
// (counts, scenario-graph, json-output…) hold the built binary's refusals.
import t from 'tap';
import { runInProcess } from './in-process-cli.js';

/** A refused configuration: its name, the lines appended to the base, and its error line. */
export type Refusal = readonly [name: string, lines: string, error: RegExp];

/** One test per refusal, each writing `base` + its lines to load.yaml. */
export function testRefusals(base: string, refusals: readonly Refusal[]): void {
  for (const [name, lines, error] of refusals) {
    t.test(`validate refuses: ${name}`, async (t) => {
      const dir = t.testdir({ 'load.yaml': `${base}${lines}\n` });
      const result = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
      t.equal(result.code, 1, result.stderr);
      t.match(result.stderr, error);
      t.match(result.stderr, /nothing was sent/);
      t.notMatch(result.stderr, /^\s+at /m, 'no stack trace');
      t.equal(result.stdout, '');
    });
  }
}
