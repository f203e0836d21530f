import t, { type Test } from 'tap';
import { createServer } from 'node:http';
import { runCli } from '../helpers/run-cli.js';

/** A server that timestamps every arrival (wall clock, to line up with the run's started_at). */
async function arrivals(t: Test): Promise<{ url: string; times: number[] }> {
  const times: number[] = [];
  const server = createServer((_req, res) => {
    times.push(Date.now());
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, times };
}

/** Arrivals per whole second of the run, counted from its dispatch start. */
function perSecond(
  run: { times: readonly number[]; result: { started_at: string } },
  seconds: number,
): number[] {
  const start = Date.parse(run.result.started_at);
  const counts = new Array<number>(seconds).fill(0);
  for (const time of run.times) {
    const s = Math.floor((time - start) / 1000);
    if (s >= 0 && s < seconds) counts[s]!++;
  }
  return counts;
}

/** Runs patterns at once, each against its own arrival-recording server. */
async function runPatterns(t: Test, patterns: readonly (readonly [string, string[]])[]) {
  const targets = await Promise.all(patterns.map(() => arrivals(t)));
  const files = Object.fromEntries(
    patterns.map(([pattern], i) => [
      `p${i}.yaml`,
      `target: ${targets[i]!.url}\nconcurrency: 20\npattern: ${pattern}\n`,
    ]),
  );
  const dir = t.testdir(files);
  return Promise.all(
    patterns.map(async ([, extra], i) => {
      const result = await runCli(['run', `p${i}.yaml`, '--json-output', ...extra], { cwd: dir });
      return {
        result: JSON.parse(result.stdout) as {
          total: number;
          dropped: number;
          duration_ms: number;
          started_at: string;
          intended_latency_ms: { max: number };
        },
        code: result.code,
        times: targets[i]!.times,
      };
    }),
  );
}

/**
 * Each second's arrivals against the plan's integral over it. A request sent late (the generator
 * starved of CPU) moves from one second to the next: so besides `tolerance`, a second may differ
 * by what its boundaries' rates (`edges`: per second, the rate at its start and at its end) send
 * in the run's own largest lateness, bounded by its largest intended-time latency.
 */
function near(
  t: Test,
  run: RunOf,
  expected: readonly number[],
  edges: readonly (readonly [number, number])[],
  tolerance: number,
  name: string,
): void {
  const lateS = run.result.intended_latency_ms.max / 1000;
  perSecond(run, expected.length).forEach((count, i) => {
    const want = expected[i]!;
    const [from, to] = edges[i]!;
    const slack = tolerance * want + 3 + (from + to) * lateS;
    t.ok(
      Math.abs(count - want) <= slack,
      `${name} second ${i}: ${count} ≈ ${want} ± ${slack.toFixed(0)}`,
    );
  });
}

/** A run of runPatterns. */
type RunOf = Awaited<ReturnType<typeof runPatterns>>[number];

/** The run sent (or dropped) exactly its plan's permits, and the target saw what it sent. */
function planned(t: Test, run: RunOf, permits: number, name: string): void {
  t.equal(run.code, 0, `${name} exits 0`);
  t.ok(
    Math.abs(run.result.total + run.result.dropped - permits) <= 1,
    `${name}: ${run.result.total} sent + ${run.result.dropped} dropped = ${permits}`,
  );
  t.equal(run.times.length, run.result.total, `${name}: the target saw each request sent`);
}

t.test('ramp, step and spike shape the load; each run ends with its plan', async (t) => {
  const [ramp, step, spike] = await runPatterns(t, [
    ['{ type: ramp, from: 0, to: 400, duration: 4s }', []],
    ['{ type: step, steps: [{ rate: 100, duration: 2s }, { rate: 300, duration: 2s }] }', []],
    ['{ type: spike, base: 50, peak: 300, duration: 4s, at: 1s, hold: 1s }', []],
  ]);
  if (ramp === undefined || step === undefined || spike === undefined)
    throw new Error('three runs expected');
  // Integrals of each second: the ramp rises linearly, steps hold their rates, the spike returns.
  const ramps = [
    [0, 100],
    [100, 200],
    [200, 300],
    [300, 400],
  ] as const;
  near(t, ramp, [50, 150, 250, 350], ramps, 0.12, 'ramp');
  near(
    t,
    step,
    [100, 100, 300, 300],
    [
      [100, 100],
      [100, 300],
      [300, 300],
      [300, 300],
    ],
    0.06,
    'step',
  );
  near(
    t,
    spike,
    [50, 300, 50, 50],
    [
      [50, 300],
      [300, 300],
      [300, 50],
      [50, 50],
    ],
    0.08,
    'spike',
  );
  for (const [name, run, total] of [
    ['ramp', ramp, 800],
    ['step', step, 800],
    ['spike', spike, 450],
  ] as const) {
    planned(t, run, total, name);
    // It ends with its plan: not before, and not later than its last, latest request allows.
    const latest = 4000 + run.result.intended_latency_ms.max + 1000;
    t.ok(
      run.result.duration_ms >= 3900 && run.result.duration_ms < latest,
      `${name} ended with the plan (${run.result.duration_ms} ms, before ${latest.toFixed(0)})`,
    );
  }
});

t.test('a pattern across two threads keeps its shape and total', async (t) => {
  const [step] = await runPatterns(t, [
    [
      '{ type: step, steps: [{ rate: 100, duration: 1s }, { rate: 300, duration: 1s }] }',
      ['--threads', '2'],
    ],
  ]);
  if (step === undefined) throw new Error('one run expected');
  near(
    t,
    step,
    [100, 300],
    [
      [100, 300],
      [300, 300],
    ],
    0.06,
    'two-thread step',
  );
  planned(t, step, 400, 'two-thread step');
});
