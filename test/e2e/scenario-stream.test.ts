// TypeScript requests marked as streams (stream: 'sse' | 'chunks'), run by the built CLI (spawned)
// against a paced streaming server in the test: the JSON result holds the stream metrics with the
// right counts, thresholds on them pass and fail as they should, and what each response holds
// (events, body, timings.firstEvent) is checked inside the scenario (test/fixtures/scenarios/streams.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { pacedStreamServer } from '../helpers/paced-stream-server.js';
import { runCli } from '../helpers/run-cli.js';

const SCENARIO = join(
  fileURLToPath(new URL('../fixtures/scenarios/', import.meta.url)),
  'streams.ts',
);

interface Pieces {
  readonly time_to_first_event_ms?: unknown;
  readonly time_to_first_chunk_ms?: unknown;
}

interface Report {
  readonly failures: number;
  readonly sse?: Pieces & { readonly events: number };
  readonly stream?: Pieces & { readonly chunks: number };
  readonly endpoints: readonly {
    readonly name: string;
    readonly sse?: { readonly events: number };
    readonly stream?: { readonly chunks: number };
  }[];
  readonly checks: { readonly by_name: Record<string, { passes: number; fails: number }> };
  readonly thresholds?: { readonly results: readonly { threshold: string; pass: boolean }[] };
}

const CHECKS = [
  'sse: events counts the events',
  "sse: body is the last event's data",
  'sse: timings.firstEvent is a time within the request',
  'chunks: events counts the chunks',
  'chunks: body is the whole body',
  'chunks: timings.firstEvent is set',
  'batch: a JSON document in chunks reads whole',
  'batch: its chunks are counted',
  'no stream: neither events nor firstEvent',
  'a stream that is none throws',
];

/** Four iterations on two virtual users, with the thresholds given. */
async function run(
  t: Test,
  thresholds: readonly string[],
): Promise<{ code: number | null; report: Report }> {
  const { url } = await pacedStreamServer(t, 5, 20);
  const result = await runCli(
    [
      'run',
      '--scenario',
      SCENARIO,
      '--target',
      url,
      '-n',
      '4',
      '-c',
      '2',
      '--json-output',
      ...thresholds.flatMap((th) => ['--threshold', th]),
    ],
    { killAfterMs: 60_000 },
  );
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

t.test(
  'streamed requests record the stream metrics, and their responses hold what came',
  async (t) => {
    const { code, report } = await run(t, [
      'sse_events:count == 20',
      'stream_chunks{endpoint=ndjson}:count >= 4',
      'sse_time_to_first_event:max < 60000',
      'stream_chunk_gap{endpoint=ndjson}:max < 60000',
    ]);
    t.equal(code, 0, 'every threshold passes');
    t.same(
      report.checks.by_name,
      Object.fromEntries(CHECKS.map((name) => [name, { passes: 4, fails: 0 }])),
      'every check on the responses passed in every iteration',
    );
    t.equal(report.failures, 0);
    t.equal(report.sse?.events, 20, '4 streams of 5 events');
    t.equal(report.endpoints.find((e) => e.name === 'sse')?.sse?.events, 20);
    const ndjson = report.endpoints.find((e) => e.name === 'ndjson')?.stream?.chunks ?? 0;
    t.ok(ndjson >= 4 && ndjson <= 20, `${ndjson} chunks of 20 lines written`);
    const json = report.endpoints.find((e) => e.name === 'json')?.stream?.chunks ?? 0;
    t.ok(json >= 4 && json <= 12, `${json} chunks of 12 writes (the batch's)`);
    t.equal(report.stream?.chunks, ndjson + json, 'the run counts both chunked endpoints');
    t.equal(
      report.endpoints.find((e) => e.name === 'warm')?.stream,
      undefined,
      'no figures for a plain request',
    );
    t.same(
      report.thresholds?.results.map((r) => r.pass),
      [true, true, true, true],
    );
  },
);

t.test("thresholds on a scenario's stream metrics fail the run", async (t) => {
  const { code, report } = await run(t, [
    'sse_events:count > 20',
    'stream_chunks:count > 1000',
    'sse_events{endpoint=ndjson}:count >= 0',
    'sse_events{endpoint=sse}:count == 20',
  ]);
  t.equal(code, 1, 'a failed threshold fails the run');
  t.same(
    report.thresholds?.results.map((r) => [r.threshold, r.pass]),
    [
      ['sse_events:count > 20', false],
      ['stream_chunks:count > 1000', false],
      ['sse_events{endpoint=ndjson}:count >= 0', false],
      ['sse_events{endpoint=sse}:count == 20', true],
    ],
  );
});
