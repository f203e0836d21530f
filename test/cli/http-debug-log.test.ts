// The HTTP debug log's counts: a line is counted written only when it went out, on stderr too,
// where the dashboard holds a bounded number of lines and drops the rest.
import t from 'tap';
import type { Loaded } from '../../dsl/load-plan.js';
import type { Provenance } from '../../dsl/layers.js';
import { SecretSet } from '../../dsl/secret-set.js';
import { HTTP_DEBUG_STDERR } from '../../model/plan/http-debug-plan.js';
import { HttpDebugLog } from '../../cli/http-debug-log.js';
import { Redactor } from '../../cli/render/redact.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';

const provenance: Provenance = {
  sourceOf: () => ({ kind: 'default' }),
  isInterpolated: () => false,
};

const record: ExchangeRecord = {
  time: '2025-01-01T00:00:00.000Z',
  endpoint: 'home',
  vu: 1,
  method: 'GET',
  url: 'http://127.0.0.1/',
  request: { headers: {}, body: '', body_bytes: 0 },
  response: { status: 500, headers: {}, body: 'no', body_bytes: 2 },
  timings: { waiting_ms: 1, duration_ms: 2 },
  error_kind: 'http_5xx',
};

t.test(
  'lines the stderr writer drops (a full hold under the dashboard) count as dropped',
  async (t) => {
    const out: string[] = [];
    const log = HttpDebugLog.open(
      {} as Loaded,
      { requests: 'failed', file: HTTP_DEBUG_STDERR, maxBytes: 1 << 20, perSecond: 1000 },
      {
        cwd: t.testdirName,
        redactor: new Redactor({ provenance, secrets: new SecretSet() }),
        // Holds three lines, then drops: what commands/held-stderr.ts does past its bound.
        stderr: (line) => out.length < 3 && out.push(line) > 0,
        warn: () => undefined,
        nowMs: () => 0,
      },
    );
    for (let i = 0; i < 5; i++) log.write(record);
    t.equal(out.length, 3);
    t.same(log.counts(), { written: 3, dropped: 2 });
    t.same(JSON.parse(out[0]!), record, 'a line is the record as JSON');
  },
);
