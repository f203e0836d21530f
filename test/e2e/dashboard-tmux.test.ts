/**
 * The dashboard as a user sees it: the built CLI in a real pseudo-terminal (tmux), at 80×24 and
 * 120×40. The screen shows the sparkline, gauges and tables; q (or Ctrl+C) stops the run; the
 * report follows; the terminal is restored exactly (main screen, cursor shown, same stty modes).
 * Skipped only when tmux is not installed (.ci/run installs it). Every wait polls the screen up to
 * a bound (generous for a loaded 2-core machine); nothing asserts a time. The runs are long (60 s)
 * so that q or Ctrl+C, never the clock, ends them.
 */
import t, { type Test } from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { BIN } from '../helpers/run-cli.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const ESC = '\u001b';
/** A foreground color as tmux re-encodes it (SGR 31–37; 39 is the default color). */
const COLOR = new RegExp(`${ESC}\\[(?:\\d+;)*3[1-7]m`);
const SPARK = /[▁▂▃▄▅▆▇█]/;
const DONE = /BARRAGE_EXIT=(\d+)/;

const skip = hasTmux()
  ? false
  : 'tmux is not installed: apt-get install tmux (bash .ci/run installs it)';
/** Bounds of the waits, ms (the file has 120 s in all): a frame drawn, the report printed. */
const FIRST_FRAME = 20_000;
const REPORT = 20_000;

/**
 * The shell line tmux runs: the terminal modes before and after the run compared, the exit code
 * shown, then a pause so that the pane stays for capture. CI and NO_COLOR are unset (CI=true
 * would turn the dashboard off); `env` adds variables.
 */
function command(url: string, args: string, env = ''): string {
  return (
    `before=$(stty -g); env -u CI -u NO_COLOR ${env} ${BIN} run --target ${url}/delay/5 ${args}; ` +
    `code=$?; [ "$before" = "$(stty -g)" ] && echo TTY_RESTORED || echo TTY_CHANGED; ` +
    `echo BARRAGE_EXIT=$code; sleep 120`
  );
}

/** The dashboard is up once its sections and a sparkline bar are drawn. */
function drawn(screen: string): boolean {
  return /^req\/s .*[▁▂▃▄▅▆▇█]/m.test(screen) && /latest errors/.test(screen);
}

/** A target server for this test. */
async function target(t: Test): Promise<string> {
  const server = await startTargetServer({ port: 0 });
  t.teardown(() => server.close());
  return server.url;
}

/** Lines matching `pattern`. */
function some(lines: readonly string[], pattern: RegExp): boolean {
  return lines.some((line) => pattern.test(line));
}

t.test(
  '80×24: the dashboard, q stops it, the report, the terminal restored',
  { skip },
  async (t) => {
    const tmux = TmuxSession.start('narrow', command(await target(t), '-c 10 -d 60s'), 80, 24);
    t.teardown(() => tmux.close());
    const lines = (await tmux.waitFor(drawn, FIRST_FRAME)).split('\n');
    // The URL may be cut to fit; tmux drops trailing blanks.
    t.match(
      lines[0],
      /^ barrage {2}http:\/\/127\.0\.0\.1:\d+\/delay\S* {2}10 workers · closed model/,
    );
    t.match(lines[0], / running \d:\d\d$/);
    t.match(lines[1], SPARK, 'the sparkline');
    for (const gauge of ['progress', 'errors', 'busy'])
      t.ok(some(lines, new RegExp(`^${gauge} +[█▏▎▍▌▋▊▉░]+ {2}`)), `gauge ${gauge}`);
    t.ok(some(lines, /^status +count +share │ error +count +share/), 'status and error tables');
    t.ok(some(lines, /^200 +\d+ +100\.00% │ no errors/), 'a status row');
    t.ok(some(lines, /^endpoint +requests +failed +p50 ms +p95 ms +p99 ms/), 'endpoint table');
    t.ok(
      some(lines, /^GET http.* \d+ +0\.00% +\d+\.\d\d +\d+\.\d\d +\d+\.\d\d$/),
      'a percentile row',
    );
    t.ok(some(lines, /^latest errors/));
    t.ok(
      lines.every((l) => Array.from(l).length <= 80),
      'nothing wider than 80 columns',
    );
    t.match(lines[23], /q or Ctrl\+C stops the run/, 'the footer on the last row');
    t.equal(tmux.format('#{alternate_on}'), '1', 'on the alternate screen');
    t.equal(tmux.format('#{cursor_flag}'), '0', 'cursor hidden');
    t.match(tmux.screenWithEscapes(), COLOR, 'colors');

    tmux.keys('q');
    const after = await tmux.waitFor((s) => DONE.test(s), REPORT, true);
    t.equal(DONE.exec(after)?.[1], '0', 'exit code 0');
    t.match(after, /--- Load Test Results ---\nTotal Requests: +\d+/);
    t.match(after, /Interrupted: the run was stopped early/);
    t.match(after, /TTY_RESTORED/, 'the same terminal modes as before (raw mode off)');
    t.notMatch(after, /peak \d/, 'no dashboard frame left: the report sits on the main screen');
    t.equal(tmux.format('#{alternate_on}'), '0', 'back on the main screen');
    t.equal(tmux.format('#{cursor_flag}'), '1', 'cursor shown');
  },
);

t.test('120×40: more room, a resize, Ctrl+C as a key, NO_COLOR', { skip }, async (t) => {
  const args = "-c 10 -d 60s --threshold 'http_req_duration:p95 < 60000'";
  const tmux = TmuxSession.start('wide', command(await target(t), args, 'NO_COLOR=1'), 120, 40);
  t.teardown(() => tmux.close());
  const lines = (await tmux.waitFor(drawn, FIRST_FRAME)).split('\n');
  t.ok(
    lines.every((l) => Array.from(l).length <= 120),
    'nothing wider than 120 columns',
  );
  t.ok(some(lines, /^✓ http_req_duration:p95 < 60000 +\d+\.\d\d$/), 'the threshold, live');
  t.ok(some(lines, /^thresholds {2}1 of 1 passing now/));
  t.ok(
    lines.filter((l) => /^(req\/s)? +[▁▂▃▄▅▆▇█ ]+( \d|$)/.test(l)).length >= 4,
    'a taller chart',
  );
  t.match(lines[39], /q or Ctrl\+C stops the run/, 'the footer on the last of 40 rows');
  t.notMatch(tmux.screenWithEscapes(), COLOR, 'NO_COLOR: no colors');

  tmux.resize(90, 30);
  await tmux.waitFor(
    (s) => /q or Ctrl\+C stops the run/.test(s.split('\n')[29] ?? ''),
    FIRST_FRAME,
  );
  t.pass('redrawn for 90×30');

  tmux.keys('C-c');
  const after = await tmux.waitFor((s) => DONE.test(s), REPORT, true);
  t.equal(DONE.exec(after)?.[1], '0', 'exit code 0');
  t.match(after, /✓ http_req_duration:p95 < 60000: /, 'the report with its thresholds');
  t.match(after, /Interrupted: the run was stopped early/);
  t.match(after, /TTY_RESTORED/);
  t.equal(tmux.format('#{alternate_on}'), '0');
});
