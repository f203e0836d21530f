/**
 * Child-process entry that reads a scenario's `options` (scenario-options.ts starts it with
 * --no-node-snapshot, which isolated-vm needs, so barrage's own process never loads the addon):
 * the bundle comes as JSON on stdin, runs in a throwaway isolate (small memory limit, short
 * timeout, a stub API whose functions throw), and `options` leaves as JSON text on stdout, so only
 * plain data crosses. Like cli/bin.ts it is an entry point, so it may touch `process`.
 */
import { readFileSync } from 'node:fs';
import { isolatedVm } from '../../native/isolated-vm.js';
import type { ScenarioEnv, ScriptBundle } from '../../model/plan/plan.js';
import type { OpenedData } from '../../model/plan/shared-data.js';
import { OPENED_DATA_SOURCE } from './opened-data-source.js';
import { METRIC_CLASSES_SOURCE } from '../../sandbox/metric-classes.js';
import { REMOVE_GLOBALS_SOURCE } from '../../sandbox/removed-globals.js';
import { ENV_SOURCE } from '../../sandbox/scenario-env.js';
import { WEB_GLOBALS_SOURCE } from '../../sandbox/web-globals.js';
import { webHost } from '../../sandbox/web-host.js';

/** A metric the scenario's top level declared (`new Trend('name', true)`): its kind and unit. */
export interface ScriptMetric {
  readonly type: string;
  readonly unit: string;
}

/**
 * What the reader prints: the options as JSON text (null when none) and the metrics the top level
 * declared, or why it failed.
 */
export type OptionsReply =
  | {
      readonly ok: true;
      readonly text: string | null;
      readonly metrics: Readonly<Record<string, ScriptMetric>>;
      /** The data files the top level opened (data.json(), data.csv()), in order, once each. */
      readonly data: readonly OpenedData[];
    }
  | { readonly ok: false; readonly message: string };

/** Reading the options may take this long (top-level code of the scenario included). */
const OPTIONS_TIMEOUT_MS = 1000;
const OPTIONS_MEMORY_MB = 32;

/** What the reader gets on stdin: the bundle and the scenario's environment. */
export interface OptionsRequest extends ScriptBundle {
  readonly env: ScenarioEnv;
}

/**
 * Runs the bundle's top level with an API that refuses calls (but for env, crypto and the web
 * globals, which work there as in an iteration), and returns `options` and the metrics declared
 * (sandbox/metric-classes.ts) as JSON texts.
 */
const READ_OPTIONS = `
${REMOVE_GLOBALS_SOURCE}
const web = $1;
const envJson = $2;
const { parse } = JSON;
const barrageCrypto = ${WEB_GLOBALS_SOURCE};
const env = ${ENV_SOURCE};
const declared = Object.create(null);
const metricDeclared = (name, kind, unit) => {
  declared[name] = { type: kind, unit };
};
const metricAdd = (name) => {
  throw new Error(name + '.add(): samples are added inside an iteration, not at the top level of the scenario');
};
${METRIC_CLASSES_SOURCE}
${OPENED_DATA_SOURCE}
const refuse = (name) => () => { throw new Error(name + ' is not available outside an iteration'); };
const api = {
  http: { get: refuse('http.get'), post: refuse('http.post'), put: refuse('http.put'),
          patch: refuse('http.patch'), del: refuse('http.del'), request: refuse('http.request') },
  ws: { session: refuse('ws.session'), connect: refuse('ws.connect') },
  check: refuse('check'), sleep: refuse('sleep'), group: refuse('group'), feed: refuse('feed'),
  vars: { get: refuse('vars.get'), set: refuse('vars.set') },
  data: openData,
  env, crypto: barrageCrypto,
  ...metricClasses,
};
const options = $0(api).options;
return [options === undefined ? undefined : JSON.stringify(options), JSON.stringify(declared), JSON.stringify(opened)];`;

function readOptions(script: OptionsRequest): OptionsReply {
  let isolate;
  try {
    isolate = new (isolatedVm().Isolate)({ memoryLimit: OPTIONS_MEMORY_MB });
    const context = isolate.createContextSync();
    const factory = isolate
      .compileScriptSync(script.code, { filename: script.file })
      .runSync(context, { reference: true, timeout: OPTIONS_TIMEOUT_MS });
    const [text, metrics, data] = context.evalClosureSync(
      READ_OPTIONS,
      [factory.derefInto(), new (isolatedVm().Callback)(webHost), JSON.stringify(script.env)],
      { result: { copy: true }, timeout: OPTIONS_TIMEOUT_MS },
    ) as [unknown, string, string];
    return {
      ok: true,
      text: typeof text === 'string' ? text : null,
      metrics: JSON.parse(metrics) as Record<string, ScriptMetric>,
      data: JSON.parse(data) as OpenedData[],
    };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  } finally {
    isolate?.dispose();
  }
}

const script = JSON.parse(readFileSync(0, 'utf8')) as OptionsRequest;
process.stdout.write(JSON.stringify(readOptions(script)));
