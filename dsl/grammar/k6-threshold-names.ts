/**
 * k6 habits in threshold expressions. Thresholds pasted from a k6 script say `p(95)` and `med`:
 * each means exactly one barrage spelling, so the parser reads it as that spelling (and says so
 * once in `barrage validate`). k6's metric names mean what k6 means: `http_reqs` and
 * `ws_sessions` are barrage metrics of their own (http_requests counts WebSocket sessions too).
 * k6 metrics that barrage does not measure are refused with what to write instead, or with the
 * reason there is none, rather than an "unknown metric".
 */

const PHASES =
  'barrage times the whole request (http_req_duration), its connection set-up (http_req_connecting, http_req_tls_handshaking) and its time to first byte (http_req_waiting), not its other phases';

/** k6 metrics with no barrage equivalent, and why (or what comes closest). */
const K6_ONLY: Readonly<Record<string, string>> = {
  http_req_blocked: PHASES,
  http_req_sending: PHASES,
  http_req_receiving: PHASES,
  group_duration:
    'a group tags its requests (http_req_duration{group=name}), it is not timed itself',
  ws_ping: 'barrage does not send pings',
};

/** Why a k6 metric has no barrage equivalent; undefined for any other name. */
export function k6OnlyMetric(name: string): string | undefined {
  return Object.hasOwn(K6_ONLY, name) ? K6_ONLY[name] : undefined;
}

/** `p(N)` → `pN` (any N: the percentile grammar judges it), `med` → `p50`; undefined otherwise. */
export function aggregateAlias(text: string): string | undefined {
  if (text === 'med') return 'p50';
  const call = /^p\((.+)\)$/.exec(text);
  return call === null ? undefined : `p${call[1]!}`;
}
