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
 * It returns its entry, which takes the records the host sends (records.ts), and posts its own.
 */
import { installConsole } from './console.js';
import { parse, stringify, textOf } from './intrinsics.js';
import { metricClasses, type CustomKind } from './metric-classes.js';
import { entryOf, type Entry, type InboundReader, type Post } from './records.js';
import { removeGlobals } from './remove-globals.js';
import { response } from './response.js';
import { defineEnv } from './scenario-env.js';
import { sharedData, type SharedTable } from './shared-data.js';
import {
  bindHost,
  groupName,
  hostCall,
  pending,
  postEnd,
  postLog,
  Refusal,
  settle,
  tagsOf,
  type HostCall,
} from './vu-host.js';
import { vuApi } from './vu-api.js';
import type { WebCall } from './web-call.js';
import { closeTimers, dropTimers, openTimers, timerGlobals } from './timers.js';
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

const end = (token: number, json: string): void => postEnd(token, json);

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
const runIteration = async (token: number, iteration: number, exec: string, data: unknown) => {
  let json = '';
  try {
    const fn = exported(exec);
    k6Globals.__ITER = iteration - 1;
    openTimers();
    await fn({ id: vuNumber, iteration }, data);
    await closeTimers();
  } catch (error) {
    dropTimers();
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
const runs: (number | string)[] = [];
const runNext = (): void => {
  const token = runs.shift() as number;
  const iteration = runs.shift() as number;
  const exec = runs.shift() as string;
  void runIteration(token, iteration, exec, dataJson === undefined ? undefined : parse(dataJson));
};

/** What the entry does with each record the host sent (records.ts). */
const reader: InboundReader = {
  run: (token, iteration, exec) => {
    // The calls of earlier iterations still waiting will not settle: the host drops them (and
    // closes their sockets).
    pending.clear();
    sockets.clear();
    runs.push(token, iteration, exec);
    void started.then(runNext);
  },
  response: (id, r) => settle(id, response(r)),
  ok: (id, json) => settle(id, json === '' ? undefined : parse(json)),
  failed: (id, message) => settle(id, new Refusal(message)),
  event: (id, type, payload) => sockets.get(id)?.event(type, payload),
  setup: (token) => void started.then(setupEntry).then((json) => end(token, json)),
  teardown: (token) => void started.then(teardownEntry).then((json) => end(token, json)),
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
  installConsole(postLog);
  for (const [name, value] of Object.entries(timerGlobals))
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  const crypto = installWebGlobals(web);
  const env = defineEnv(envJson);
  const metrics = metricClasses({ declared: metricDeclared, add: metricAdd });
  const shared = sharedData(sharedTables, () => initializing);
  scenario = factory(vuApi({ data: shared, env, crypto, metrics }));
  initializing = false;
  return entryOf(reader);
}
