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
          duration_ms: number;
          started_at: string;
        },
        code: result.code,
        times: targets[i]!.times,
      };
    }),
  );
}

function near(
  t: Test,
  actual: number[],
  expected: number[],
  tolerance: number,
  name: string,
): void {
  actual.forEach((count, i) => {
    const want = expected[i]!;
    t.ok(Math.abs(count - want) <= tolerance * want + 3, `${name} second ${i}: ${count} ≈ ${want}`);
  });
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
  near(t, perSecond(ramp, 4), [50, 150, 250, 350], 0.12, 'ramp');
  near(t, perSecond(step, 4), [100, 100, 300, 300], 0.06, 'step');
  near(t, perSecond(spike, 4), [50, 300, 50, 50], 0.08, 'spike');
  for (const [name, run, total] of [
    ['ramp', ramp, 800],
    ['step', step, 800],
    ['spike', spike, 450],
  ] as const) {
    t.equal(run.code, 0, `${name} exits 0`);
    t.ok(
      Math.abs(run.result.total - total) <= total * 0.03,
      `${name} total ${run.result.total} ≈ ${total}`,
    );
    t.ok(
      run.result.duration_ms >= 3900 && run.result.duration_ms < 5500,
      `${name} ended with the plan (${run.result.duration_ms} ms)`,
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
  near(t, perSecond(step, 2), [100, 300], 0.06, 'two-thread step');
  t.ok(Math.abs(step.result.total - 400) <= 12, `total ${step.result.total}`);
});
