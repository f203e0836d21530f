/**
 * The dashboard of a TypeScript scenario as a user sees it at 80×24 (the built CLI in tmux): its
 * requests by the names the final report gives them (not #0, #1), the worst first and several of
 * them visible (failing first: an order that no machine's speed changes), and the latency of each second under the requests/s chart. q stops the run.
 * Skipped only when tmux is not installed (.ci/run installs it); every wait polls up to a bound.
 */
import t from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { BIN } from '../helpers/run-cli.js';
import { hasTmux, TmuxSession } from '../helpers/tmux.js';

const skip = hasTmux()
  ? false
  : 'tmux is not installed: apt-get install tmux (bash .ci/run installs it)';
const DONE = /BARRAGE_EXIT=(\d+)/;
const SCENARIO = `import { http } from 'barrage';

export async function setup(): Promise<void> {
  await http.get('/json', { name: 'catalogue' });
}

export default async function (): Promise<void> {
  await http.get('/', { name: 'home' });
  await http.get('/json', { name: 'list' });
  await http.get('/delay/30', { name: 'slow' });
  await http.get('/status/500', { name: 'broken' });
  await http.get('/delay/2', { name: 'search' });
  await http.post('/echo', { items: [1] }, { name: 'cart' });
}
`;

t.test(
  '80×24: a scenario’s requests by name, the worst first, latency over time',
  { skip },
  async (t) => {
    const server = await startTargetServer({ port: 0 });
    t.teardown(() => server.close());
    const dir = t.testdir({ 'shop.ts': SCENARIO });
    const command =
      `cd ${dir} && env -u CI -u NO_COLOR ${BIN} run --scenario shop.ts --target ${server.url} ` +
      `-c 4 -d 60s --no-typecheck; echo BARRAGE_EXIT=$?; sleep 120`;
    const tmux = TmuxSession.start('scenario', command, 80, 24);
    t.teardown(() => tmux.close());
    // Up once every request has a row with percentiles and a second of latency is drawn.
    const screen = await tmux.waitFor(
      (s) => /^p95 ms .*[▁▂▃▄▅▆▇█]/m.test(s) && /^broken .*\d+\.\d\d$/m.test(s),
      30_000,
    );
    const lines = screen.split('\n');
    const heading = lines.findIndex((l) => /^endpoint +requests +failed/.test(l));
    t.ok(heading > 0, 'the endpoint table');
    const rows = lines.slice(heading + 1).filter((l) => /^\S+ +\d+ +\d+\.\d\d%/.test(l));
    const names = rows.map((l) => l.split(/ +/)[0]);
    t.ok(rows.length >= 4, `at least four requests visible: ${names.join(', ')}`);
    t.equal(names[0], 'broken', 'the failing request first');
    t.match(rows[0], / 100\.00% /, 'all of its requests failed');
    t.notOk(
      names.some((n) => /^#\d+$/.test(n ?? '')),
      'no request shown by its index',
    );
    for (const name of names)
      t.ok(
        ['catalogue', 'home', 'list', 'slow', 'broken', 'search', 'cart'].includes(name ?? ''),
        `${name}: a name of the scenario`,
      );
    t.ok(
      lines.some((l) => /^p95 ms +[▁▂▃▄▅▆▇█ ]+ p95 \d+(\.\d+)?ms · p50 \d+(\.\d+)?ms$/.test(l)),
      'the latency of each second, with its last p95 and p50',
    );
    t.ok(
      lines.every((l) => Array.from(l).length <= 80),
      'nothing wider than 80 columns',
    );
    tmux.keys('q');
    const after = await tmux.waitFor((s) => DONE.test(s), 30_000, true);
    t.match(after, /--- Load Test Results ---/);
    t.match(after, /│ broken +│ +\d+ │/, 'the final report names it alike');
  },
);
