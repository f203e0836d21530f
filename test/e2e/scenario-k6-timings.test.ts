/**
 * k6's `res.timings` phases and `res.proto` on a scripted call (sandbox/isolate/response.ts,
 * runtime/script/response-timings.ts), run in process against a server that times its own
 * phases: waiting is at least the server's delay before its headers, a new connection's
 * `connecting` is set and a reused one's is 0, the phases fit within the call's duration.
 */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/in-process-cli.js';
import { phaseServer } from '../helpers/phase-server.js';

const SCENARIO = `import { http } from 'barrage';
export default async function (): Promise<void> {
  const first = await http.get('/slow');
  const second = await http.get('/slow');
  const plain = await http.get('/plain');
  await http.post('/report', {
    first: first.timings,
    second: second.timings,
    protos: [first.proto, second.proto, plain.proto],
  });
}
`;

interface Timings {
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
  duration: number;
}

t.test('timings hold the phases the server saw, and proto the protocol', async (t) => {
  const server = await phaseServer(t);
  const dir = mkdtempSync(join(tmpdir(), 'barrage-timings-'));
  writeFileSync(join(dir, 'timings.ts'), SCENARIO);
  const result = await runInProcess([
    'run',
    '--json-output',
    '--no-dashboard',
    '--scenario',
    join(dir, 'timings.ts'),
    '--target',
    server.url,
    '-n',
    '1',
    '-c',
    '1',
  ]);
  t.equal(result.code, 0, result.stderr);
  t.equal(server.reports.length, 1);
  const report = server.reports[0] as { first: Timings; second: Timings; protos: string[] };
  t.same(report.protos, ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1']);
  t.equal(server.slow.length, 2);
  for (const [i, phases] of [report.first, report.second].entries()) {
    const [serverWait] = server.slow[i]!;
    t.ok(phases.waiting >= serverWait, `waiting ${phases.waiting} ≥ the server's ${serverWait}`);
    t.ok(phases.receiving >= 0, 'receiving is a time');
    t.equal(phases.blocked, 0, 'blocked is not measured');
    t.equal(phases.sending, 0, 'sending is not measured');
    t.equal(phases.tls_handshaking, 0, 'no TLS');
    const sum = phases.connecting + phases.waiting + phases.receiving;
    t.ok(sum <= phases.duration + 0.001, `the phases (${sum}) fit in duration ${phases.duration}`);
  }
  t.ok(report.first.connecting > 0, 'the first call opened its connection');
  t.equal(report.second.connecting, 0, 'the second reused it');
});
