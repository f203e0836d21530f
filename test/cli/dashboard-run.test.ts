/**
 * The dashboard in a real run, in process, with a pretend terminal: what it writes, how q and
 * Ctrl+C stop the run, and that the terminal is restored before the report on every path.
 */
import t from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runInProcess, type InProcessOptions } from '../helpers/in-process-cli.js';
import { eventually } from '../helpers/eventually.js';
// `run` imports its machinery when it runs; loaded here, the keys' delays below count from the
// run's start, not from compiling these modules on the first run.
import '../../cli/commands/run.js';
import '../../cli/commands/run-load-test.js';
import '../../dsl/load-plan.js';

const ESC = '\u001b';

const ENTER = '\u001b[?1049h\u001b[?25l';
const LEAVE = '\u001b[0m\u001b[?25h\u001b[?1049l';
/** A foreground color (SGR 30–39). */
const COLOR = new RegExp(`${ESC}\\[3\\dm`);
/** A sparkline's bar: a frame with a second's figures. */
const SPARK = /[▁▂▃▄▅▆▇█]/;
/** A cursor move to the start of a row. */
const MOVE = new RegExp(`${ESC}\\[\\d+;1H`);

t.test('dashboard runs', async (t) => {
  const server = await startTargetServer({ port: 0 });
  t.teardown(() => server.close());
  const argv = ['run', '--target', `${server.url}/delay/5`, '-c', '2', '-d', '30s'];

  /**
   * Runs with an 80×24 pretend terminal; `keys` are typed once a frame has drawn a second's
   * figures (a sparkline), however long a busy machine took to get there, one per 100 ms.
   */
  const run = (keys: string[], options: InProcessOptions = {}) =>
    runInProcess(argv, {
      tty: { columns: 80, rows: 24 },
      ...options,
      onTerminal: (terminal) => {
        options.onTerminal?.(terminal);
        void eventually(() => SPARK.test(terminal.written())).then(() =>
          keys.forEach((key, i) => setTimeout(() => terminal.type(key), i * 100)),
        );
      },
    });

  t.test('q stops the run gracefully; the terminal is restored, then the report', async (t) => {
    const result = await run(['q']);
    t.equal(result.code, 0);
    t.ok(result.stdout.startsWith(ENTER), 'alternate screen and hidden cursor first');
    const leave = result.stdout.indexOf(LEAVE);
    const report = result.stdout.indexOf('--- Load Test Results ---');
    t.ok(leave > 0 && report > leave, 'restored before the report');
    t.equal(result.stdout.indexOf(LEAVE, leave + 1), -1, 'restored once');
    t.notMatch(result.stdout.slice(leave), MOVE, 'no frame after the report');
    const screen = result.stdout.slice(0, leave);
    for (const part of ['req/s', 'progress', 'errors', 'busy', 'status', 'endpoint', 'p95 ms'])
      t.match(screen, part);
    t.match(screen, SPARK, 'a sparkline');
    t.match(screen, COLOR, 'colors on a terminal');
    t.match(result.stdout.slice(report), /Interrupted: the run was stopped early/);
    t.same(result.rawMode, [true, false], 'raw mode on, then off');
    t.equal(result.exitHooksLeft, 0, 'no cleanup left for process exit');
    t.notMatch(result.stderr, /stopping/, 'no line on stderr tears the frame');
  });

  t.test('Ctrl+C as a key takes the same graceful path', async (t) => {
    const result = await run(['\u0003']);
    t.equal(result.code, 0);
    t.match(result.stdout, /Interrupted: the run was stopped early/);
    t.same(result.rawMode, [true, false]);
  });

  t.test('a second quit key quits at once with 130, terminal restored first', async (t) => {
    const result = await runInProcess(
      ['run', '--target', `${server.url}/delay/3000`, '-c', '2', '-d', '30s'],
      {
        tty: { columns: 80, rows: 24 },
        onTerminal: (terminal) => {
          setTimeout(() => terminal.type('q'), 1200);
          setTimeout(() => terminal.type('\u0003'), 1500);
        },
      },
    );
    t.equal(result.code, 130);
    const leave = result.stdout.indexOf(LEAVE);
    t.ok(leave > 0 && result.stdout.indexOf('--- Load Test Results ---') > leave);
    t.same(result.rawMode, [true, false]);
    t.equal(result.exitHooksLeft, 0);
  });

  t.test('NO_COLOR: no colors, the frame otherwise the same', async (t) => {
    const result = await run(['q'], { env: { NO_COLOR: '1' } });
    t.equal(result.code, 0);
    t.match(result.stdout, /progress/);
    t.notMatch(result.stdout, COLOR);
  });

  t.test('a resize redraws the whole frame at the new size', async (t) => {
    const result = await run(['q'], {
      onTerminal: (terminal) => setTimeout(() => terminal.resize(100, 30), 1000),
    });
    t.equal(result.code, 0);
    const [before = '', after = ''] = result.stdout.split('\u001b[2J').slice(1);
    t.ok(before.includes('\u001b[24;1H') && after !== '', 'cleared again on resize');
    t.notOk(before.includes('\u001b[30;1H'), '24 rows before');
    t.ok(after.includes('\u001b[30;1H'), '30 rows after');
  });
});
