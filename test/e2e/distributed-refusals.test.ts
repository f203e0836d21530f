// The rendezvous's refusals (docs/distributed.md, Kubernetes), in process: another plan, a
// readiness timeout on either side and wrong flags end the run before any traffic, exit 1.
import t from 'tap';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { runInProcess } from '../helpers/in-process-cli.js';
import { freePort } from '../helpers/local-ports.js';

t.test('another plan or a missing segment refuses the run before any traffic', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const port = await freePort();
  const dir = t.testdir({
    'a.yaml': `target: ${server.url}/json\nrequests: 6\nconcurrency: 2\n`,
    'b.yaml': `target: ${server.url}/json\nrequests: 7\nconcurrency: 2\n`,
  });
  const segment = (file: string, k: number, more: string[] = []) =>
    runInProcess(
      ['run', file, '--segment', 'auto/2', '--coordinator', `127.0.0.1:${port}`, ...more],
      { cwd: dir, env: { JOB_COMPLETION_INDEX: String(k) } },
    );
  const [first, other] = await Promise.all([segment('a.yaml', 0), segment('b.yaml', 1)]);
  t.same([first.code, other.code], [1, 1]);
  t.match(
    first.stderr,
    /segment 2\/2 has another plan \(fingerprint \w+ ≠ \w+\).*nothing was sent/,
  );
  t.match(other.stderr, /the first segment refused the run: segment 2\/2 has another plan/);

  const alone = await segment('a.yaml', 0, ['--ready-timeout', '300ms']);
  t.equal(alone.code, 1);
  t.match(
    alone.stderr,
    /the rendezvous timed out after 300ms: segment 2\/2 not ready \(nothing was sent\)/,
  );
  const unwritable = await segment('a.yaml', 0, [
    '--html',
    '/proc/barrage-report.html',
    '--ready-timeout',
    '5s',
  ]);
  t.equal(unwritable.code, 1);
  t.match(
    unwritable.stderr,
    /segment 1\/2: --html: report\.html: expected a file barrage can write .*\/proc\/barrage-report\.html.*\(nothing was sent\)/,
    'a report path it cannot write refuses the segment before the rendezvous',
  );
  t.notMatch(unwritable.stderr, /rendezvous|ready/, 'it never met the others');
  const lonely = await segment('a.yaml', 1, ['--ready-timeout', '300ms']);
  t.match(lonely.stderr, /the first segment \(127\.0\.0\.1:\d+\) was not reachable within/);
  t.equal(server.stats().total, 0, 'nothing sent');

  const unset = await runInProcess(['run', 'a.yaml', '--segment', 'auto/2'], { cwd: dir });
  t.match(
    unset.stderr,
    /--segment: expected auto\/2 with JOB_COMPLETION_INDEX set to 0…1 \(an Indexed Job sets it\), got JOB_COMPLETION_INDEX unset/,
  );
  const badAddress = await runInProcess(
    ['run', 'a.yaml', '--segment', '1/2', '--coordinator', 'barrage-0.barrage'],
    { cwd: dir },
  );
  t.match(
    badAddress.stderr,
    /--coordinator: expected HOST:PORT of the first segment, e.g. barrage-0.barrage:7878, got "barrage-0.barrage"/,
  );
  const whole = await runInProcess(['run', 'a.yaml', '--coordinator', '127.0.0.1:7878'], {
    cwd: dir,
  });
  t.match(
    whole.stderr,
    /--segment: expected with --coordinator, a segment i\/n or auto\/n of n ≥ 2, got nothing/,
  );
  const clash = await segment('a.yaml', 0, ['--start-at', '2030-01-01T00:00:00Z']);
  t.match(clash.stderr, /--start-at: expected none with --coordinator/);
});
