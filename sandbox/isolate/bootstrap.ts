/**
 * A virtual user's context (runtime/script/sandbox.ts). Its closure arguments are the host's
 * handles, which the API it builds wraps in plain functions, so user code can reach neither the
 * handles nor any Reference or ExternalCopy, nor the hub:
 *   post          the hub's post
 *   call(op, args)  host operation answered at once (check, vars, feed, jsonpath, html, …)
 *   factory(api)  the bundled scenario (ScriptPlan.code), run once here
 *   vu            the virtual user's number
 *   dataJson      setup()'s data as JSON text (undefined when there is none): each iteration
 *                 gets its own copy
 *   sharedTables  the data files' records, the hub's views of them (shared-data.ts)
 *   web(op, …)    the web globals' host calls (sandbox/web-host.ts)
 *   envJson       the scenario's environment as JSON text (sandbox/scenario-env.ts)
 * The metric classes (metric-classes.ts) may be constructed only while the scenario's top level
 * runs (init), as k6 requires; their add() is the host operation 'metric'. Before anything else
 * it deletes the globals a scenario must not see (remove-globals.ts).
 * It returns entry(kind, a, b, c, d, e, f, g, h), which takes the records the host sends:
 *   RUN      (a token, b iteration, c exec)  runs an iteration of the export named c (the
 *            default export when c is ''); the calls of earlier ones still waiting are forgotten:
 *            the host settles only the calls of the entry running
 *   OK       (a id, b JSON text or '' for undefined)  a host operation settled
 *   RESPONSE (a id, b status, c fields, d text, e error, f duration, g events, h first event)
 *            an http call settled (response.ts): the final url (after redirects), then the raw
 *            header names and values (c of them), each followed by "\n", then the body, as one
 *            text (d); the error kind, '' for none (e); the duration in ms (f); a streamed call's
 *            events or chunks (g, -1 when it was no stream) and its time to the first one in ms
 *            (h, -1 when none came). Only the status is read at once
 *   FAILED   (a id, b message)       a host operation was refused: the call throws
 *   SETUP    (a token)               runs setup()
 *   TEARDOWN (a token)               runs teardown(data)
 *   EVENT    (a id, b type, c payload)  an event of a ws.connect() socket still open (socket.ts)
 * and posts:
 *   START  (a id, b op, c arguments as JSON text)  a host operation that settles later
 *   END    (a token, b result as JSON text)  an iteration ended ('' when it did not throw, else
 *          { name, message, stack }); setup() ended ({ ok, data } or { ok: false, error });
 *          teardown() ended ({ ok } or { ok: false, error })
 *   LOG    (a level, b text)  a console call (console.ts); at most MAX_LOGS_PER_TAKE a take, past
 *          them one LOG record (a '', c how many were dropped) counts the rest (hub.ts)
 */
import { installConsole } from './console.js';
import type { Entry, Post } from './hub.js';
import { parse, stringify, textOf } from './intrinsics.js';
import { metricClasses, type CustomKind } from './metric-classes.js';
import { RECORD } from './records.js';
import { removeGlobals } from './remove-globals.js';
import { response } from './response.js';
import { defineEnv } from './scenario-env.js';
import { sharedData, type SharedTable } from './shared-data.js';
import {
  bindHost,
  groupName,
  hostCall,
  pending,
  postRecord,
  Refusal,
  settle,
  tagsOf,
  type HostCall,
} from './vu-host.js';
import { vuApi } from './vu-api.js';
import type { WebCall } from './web-call.js';
import { installWebGlobals } from './web-globals.js';
import { sockets } from './ws-api.js';

/** The bundled scenario's exports. */
type Scenario = Readonly<Record<string, unknown>> & {
  readonly setup?: unknown;
  readonly teardown?: unknown;
};

/** A function the scenario exports, called as its method. */
type Method = (this: unknown, ...args: unknown[]) => unknown;

/** The scenario's bundle: the API in, its exports out. */
type Factory = (api: ReturnType<typeof vuApi>) => Scenario;

/** k6's globals: __VU is 1-based, __ITER counts this virtual user's iterations from 0. */
const k6Globals = globalThis as unknown as { __VU: number; __ITER: number };

// True while the scenario's top level runs: metrics are declared there only.
let initializing = true;
let scenario: Scenario = {};
let vuNumber = 0;
let dataJson: string | undefined;

const metricDeclared = (name: string, kind: CustomKind): void => {
  if (!initializing)
    throw new Error(
      `a ${kind} metric (${name}) must be declared at the top level of the scenario, not inside an iteration, setup() or a function they call (as in k6)`,
    );
};

const metricAdd = (name: string, _kind: CustomKind, value: number, tags: unknown): void => {
  if (initializing)
    throw new Error(
      name + '.add(): samples are added inside an iteration, not at the top level of the scenario',
    );
  hostCall('metric', [name, value, tagsOf(tags), groupName()]);
};

/** A thrown value as { name, message, stack }. */
const describe = (error: unknown) => {
  try {
    if (error instanceof Error)
      return {
        name: textOf(error.name),
        message: textOf(error.message),
        stack: textOf(error.stack),
      };
    return { name: 'Error', message: `a thrown ${typeof error}: ${textOf(error)}`, stack: '' };
  } catch {
    return { name: 'Error', message: 'an error that cannot be described', stack: '' };
  }
};

const end = (token: unknown, json: string): void =>
  postRecord(RECORD.END, token as number, json, 0);

const exported = (exec: string): ((...args: unknown[]) => unknown) => {
  const fn = exec === '' ? scenario.default : scenario[exec];
  if (typeof fn !== 'function')
    throw new TypeError(
      exec === ''
        ? 'the scenario has no default export function'
        : 'the scenario exports no function ' + exec + ' (the exec of a scenario)',
    );
  return fn as (...args: unknown[]) => unknown;
};

// An iteration, which posts its own END record.
const runIteration = async (token: unknown, iteration: number, exec: string, data: unknown) => {
  let json = '';
  try {
    const fn = exported(exec);
    k6Globals.__ITER = iteration - 1;
    await fn({ id: vuNumber, iteration }, data);
  } catch (error) {
    json = stringify(describe(error));
  }
  end(token, json);
};

const setupEntry = async (): Promise<string> => {
  k6Globals.__VU = 0;
  if (typeof scenario.setup !== 'function') return stringify({ ok: true });
  try {
    return stringify({ ok: true, data: await (scenario.setup as Method).call(scenario) });
  } catch (error) {
    return stringify({ ok: false, error: describe(error) });
  }
};

const teardownEntry = async (): Promise<string> => {
  k6Globals.__VU = 0;
  if (typeof scenario.teardown !== 'function') return stringify({ ok: true });
  try {
    await (scenario.teardown as Method).call(
      scenario,
      dataJson === undefined ? undefined : parse(dataJson),
    );
    return stringify({ ok: true });
  } catch (error) {
    return stringify({ ok: false, error: describe(error) });
  }
};

// Scenario code starts in a job of this context's own, never inside the hub's call: V8 lets
// eval and the Function constructor work only when the context entered last is the caller's
// own, and the hub's pump is entered from the host (later continuations run as jobs already).
const started = Promise.resolve();
// Iterations to start, as [token, iteration, exec] triples: no closure is made per iteration.
const runs: unknown[] = [];
const runNext = (): void => {
  const token = runs.shift();
  const iteration = runs.shift() as number;
  const exec = runs.shift() as string;
  void runIteration(token, iteration, exec, dataJson === undefined ? undefined : parse(dataJson));
};

/** Takes a record the host sent (see the file comment). */
const entry: Entry = (kind, a, b, c, d, e, f, g, h) => {
  if (kind === RECORD.RUN) {
    // The calls of earlier iterations still waiting will not settle: the host drops them (and
    // closes their sockets).
    pending.clear();
    sockets.clear();
    runs.push(a, b, c);
    void started.then(runNext);
  } else if (kind === RECORD.RESPONSE)
    settle(
      a,
      response(
        b as number,
        c as number,
        d as string,
        e as string,
        f as number,
        g as number,
        h as number,
      ),
    );
  else if (kind === RECORD.OK) settle(a, b === '' ? undefined : parse(b as string));
  else if (kind === RECORD.FAILED) settle(a, new Refusal(b as string));
  else if (kind === RECORD.EVENT) sockets.get(a)?.event(b, c);
  else if (kind === RECORD.SETUP) void started.then(setupEntry).then((json) => end(a, json));
  else if (kind === RECORD.TEARDOWN) void started.then(teardownEntry).then((json) => end(a, json));
};

/** Builds the virtual user's API, runs the scenario's top level, returns the entry. */
export function main(
  post: Post,
  call: HostCall,
  factory: Factory,
  vu: number,
  data: string | undefined,
  sharedTables: readonly SharedTable[],
  web: WebCall,
  envJson: string,
): Entry {
  removeGlobals();
  bindHost(post, call, vu);
  vuNumber = vu;
  dataJson = data;
  k6Globals.__VU = vu + 1;
  k6Globals.__ITER = 0;
  installConsole((level, text) => postRecord(RECORD.LOG, level, text, 0));
  const crypto = installWebGlobals(web);
  const env = defineEnv(envJson);
  const metrics = metricClasses({ declared: metricDeclared, add: metricAdd });
  const shared = sharedData(sharedTables, () => initializing);
  scenario = factory(vuApi({ data: shared, env, crypto, metrics }));
  initializing = false;
  return entry;
}
