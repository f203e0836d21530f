/**
 * What `import { http, … } from 'barrage'` becomes inside a bundled scenario: bundle-scenario.ts
 * aliases the module name to this file, and the sandbox's bootstrap passes the API to the bundle
 * as the parameter `__barrageApi` (no global holds it). Never imported by barrage itself.
 */
declare const __barrageApi: Readonly<Record<string, unknown>>;

/** HTTP requests through barrage's request path. */
export const http = __barrageApi.http;
/** WebSocket sessions. */
export const ws = __barrageApi.ws;
/** Records named checks (the `checks` metric). */
export const check = __barrageApi.check;
/** Waits, in seconds. */
export const sleep = __barrageApi.sleep;
/** This virtual user: its number and its own tags (on every sample it makes, as k6's exec.vu.tags). */
export const vu = __barrageApi.vu;
/** Runs a function under a group name. */
export const group = __barrageApi.group;
/** k6/execution's context: the virtual user, its scenario, `test.abort(reason)`. */
export const exec = __barrageApi.exec;
/** The virtual user's variable store. */
export const vars = __barrageApi.vars;
/** The next feeder record. */
export const feed = __barrageApi.feed;
/** Shared read-only data files: `data.json(name)`, `data.csv(name)` at the top level. */
export const data = __barrageApi.data;
/** A custom trend: `new Trend(name, isTime)`, then `.add(value, tags)` (docs/scenarios.md). */
export const Trend = __barrageApi.Trend;
/** A custom counter: `.add(value, tags)` adds to its sum. */
export const Counter = __barrageApi.Counter;
/** A custom rate: `.add(value, tags)` counts a truthy value as true. */
export const Rate = __barrageApi.Rate;
/** A custom gauge: `.add(value, tags)` sets its value. */
export const Gauge = __barrageApi.Gauge;
/** The environment variables the user named for the scenario (`--env`, `scenario_env`). */
export const env = __barrageApi.env;
/** Hashes, HMACs and random values (k6/crypto's names), by the host's node:crypto. */
export const crypto = __barrageApi.crypto;
/** k6/encoding's base64: `encoding.b64encode(data, 'rawurl')`, `encoding.b64decode(text, 'std', 's')`. */
export const encoding = __barrageApi.encoding;
