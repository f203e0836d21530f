/**
 * The HTML report's gRPC section (docs/grpc.md): calls and stream messages counted, and the
 * calls' duration; undefined when the run made no gRPC call.
 */
import type { RunResult } from '../../runtime/metrics/run-result.js';
import { section, table } from './html-markup.js';
import { formatCount, formatMs } from './report-figures.js';

/** gRPC calls, stream messages and call duration. */
export function grpcSection(r: RunResult): string | undefined {
  const grpc = r.grpc;
  if (grpc === undefined) return undefined;
  const counts = table(
    ['calls', 'stream messages sent', 'stream messages received'],
    [
      [
        formatCount(grpc.reqs),
        formatCount(grpc.streams_msgs_sent),
        formatCount(grpc.streams_msgs_received),
      ],
    ],
    { numeric: [0, 1, 2] },
  );
  const d = grpc.req_duration_ms;
  const timings = table(
    ['', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'max ms'],
    [
      [
        'call duration',
        formatMs(d?.p50),
        formatMs(d?.p90),
        formatMs(d?.p95),
        formatMs(d?.p99),
        formatMs(d?.max),
      ],
    ],
    { numeric: [1, 2, 3, 4, 5] },
  );
  return section('grpc', 'gRPC', `${counts}\n<h3>Timings</h3>\n${timings}`);
}
