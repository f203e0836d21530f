// Iterations (runtime/worker/iteration.ts) in process against a real local target: a flow's second
// step sends what its first extracted, weighted picks follow the seeded random, feeder records
// reach the requests, and a stop cuts a think pause.
import t from 'tap';
import type { Feeder } from '../../runtime/feeder/feeder.js';
import { createFeeder } from '../../runtime/feeder/feeder.js';
import { seededRandom } from '../../model/random.js';
import { NO_INTENDED_TIME } from '../../runtime/schedule/permit-source.js';
import { IterationRunner } from '../../runtime/worker/iteration.js';
import { answer, pathRig, startTarget, type PathRig } from '../helpers/engine-rig.js';
import { eventually } from '../helpers/eventually.js';
import { tableOf } from '../helpers/feeder-table.js';

/** What an iteration runner is built with besides the rig. */
interface RunnerOptions {
  readonly seed?: number;
  readonly feeder?: Feeder;
  readonly onFeederExhausted?: () => void;
}

/** The rig's iterations, as scenario-run.ts assembles them for the plan's one scenario. */
function runnerOf(rig: PathRig, options: RunnerOptions = {}): IterationRunner {
  return new IterationRunner({
    graph: { ...rig.plan.graph, picks: rig.plan.scenarios[0]!.picks },
    requests: rig.requests,
    recorder: rig.recorder,
    path: rig.path,
    feeder: options.feeder,
    feederPer: 'iteration',
    onFeederExhausted: options.onFeederExhausted ?? (() => undefined),
    ws: undefined,
    picks: seededRandom(options.seed ?? 1),
    now: rig.now,
  });
}

/** One iteration of the rig's user; resolves when it ended. */
function iterate(runner: IterationRunner, rig: PathRig): Promise<void> {
  return new Promise((resolve, reject) =>
    runner.run(rig.vu, NO_INTENDED_TIME, { ended: resolve, failed: reject }),
  );
}

t.test('a flow step sends the value its previous step extracted', async (t) => {
  const target = await startTarget(t, {
    '/login': (_req, res, n) => res.end(JSON.stringify({ token: `tok-${n}` })),
    '/data': answer(200),
  });
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [
      { name: 'login', method: 'POST', url: '/login', extract: { token: '$.token' } },
      { name: 'data', url: '/data', headers: { 'x-token': '{{token}}' } },
    ],
    flows: [{ name: 'f', steps: ['login', 'data'] }],
  });
  const runner = runnerOf(rig);
  await iterate(runner, rig);
  await iterate(runner, rig);
  t.strictSame(
    target.received.map((r) => r.url),
    ['/login', '/data', '/login', '/data'],
    'steps in order',
  );
  t.strictSame(
    target.at('/data').map((r) => r.headers['x-token']),
    ['tok-0', 'tok-1'],
    'each iteration sent the token its own login got',
  );
  t.match(rig.snapshot(), { iterations: 2, requests: 4, successes: 4 });
  t.not(rig.snapshot().iterationDuration, undefined, 'iteration durations recorded');
});

t.test('weighted picks follow the seeded random, draw by draw', async (t) => {
  const paths = async (seed: number): Promise<string[]> => {
    const target = await startTarget(t, { '/a': answer(200), '/b': answer(200) });
    const rig = await pathRig(t, {
      target: target.url,
      endpoints: [
        { name: 'a', url: '/a', weight: 1 },
        { name: 'b', url: '/b', weight: 3 },
      ],
    });
    const runner = runnerOf(rig, { seed });
    for (let i = 0; i < 40; i++) await iterate(runner, rig);
    return target.received.map((r) => r.url);
  };
  // Spec §1 rule 8: an integer r in [0, 4), endpoint a for r < 1, b for 1 <= r < 4.
  const replay = seededRandom(11);
  const expected = Array.from({ length: 40 }, () => (replay.int(4) < 1 ? '/a' : '/b'));
  const got = await paths(11);
  t.strictSame(got, expected, 'the server saw the draws of seed 11 in order');
  t.ok(got.includes('/a') && got.includes('/b'), 'both endpoints drawn');
  t.strictSame(await paths(11), got, 'the same seed, the same picks');
  t.notSame(await paths(12), got, 'another seed, other picks');
});

t.test('each iteration sends its own feeder record; a used-up feeder ends', async (t) => {
  const target = await startTarget(t, { '/who': answer(200) });
  const rig = await pathRig(t, {
    target: target.url,
    endpoints: [{ name: 'who', url: '/who?u={{user}}', headers: { 'x-pin': '{{pin}}' } }],
  });
  const records = tableOf([
    { user: 'ada', pin: '1' },
    { user: 'bob', pin: '2' },
    { user: 'cy', pin: '3' },
  ]);
  const feeder = createFeeder(
    { order: 'sequential', cycle: false, records },
    { first: 0, stride: 1 },
    seededRandom(1),
  );
  let exhausted = 0;
  const runner = runnerOf(rig, { feeder, onFeederExhausted: () => exhausted++ });
  for (let i = 0; i < 4; i++) await iterate(runner, rig);
  t.strictSame(
    target.received.map((r) => [r.url, r.headers['x-pin']]),
    [
      ['/who?u=ada', '1'],
      ['/who?u=bob', '2'],
      ['/who?u=cy', '3'],
    ],
    'the records in order, in the url and a header',
  );
  t.equal(exhausted, 1, 'the fourth iteration found the feeder used up');
  t.equal(rig.snapshot().requests, 3);
});

t.test('a stop cuts a think pause and ends the iteration at once', async (t) => {
  const table: [string, Record<string, unknown>][] = [
    [
      "the flow's pause between steps",
      {
        endpoints: [
          { name: 'a', url: '/a' },
          { name: 'b', url: '/b' },
        ],
        flows: [{ name: 'f', steps: ['a', 'b'], think: '10m' }],
      },
    ],
    [
      "the endpoint's pause after the last step",
      { endpoints: [{ name: 'a', url: '/a', think: '10m' }] },
    ],
  ];
  for (const [name, config] of table) {
    const target = await startTarget(t, { '/a': answer(200), '/b': answer(200) });
    const rig = await pathRig(t, { target: target.url, ...config });
    const runner = runnerOf(rig);
    let ended = false;
    runner.run(rig.vu, NO_INTENDED_TIME, {
      ended: () => (ended = true),
      failed: (e) => t.error(e),
    });
    await eventually(() => rig.vu.session !== undefined);
    t.equal(ended, false, `${name}: thinking`);
    runner.stopThinking();
    t.equal(ended, true, `${name}: the stop ended the iteration`);
    t.equal(rig.vu.session, undefined, `${name}: nothing left for a hard stop to cut`);
    t.strictSame(
      target.received.map((r) => r.url),
      ['/a'],
      `${name}: no step after the pause`,
    );
    t.match(rig.snapshot(), { iterations: 1, requests: 1 });
    t.not(rig.snapshot().iterationDuration, undefined, `${name}: its duration recorded`);
  }
});
