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
import { isolateSource } from '../../sandbox/isolate-source.js';
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
 * Runs the bundle's top level with an API that refuses calls (but for env, crypto, data and the
 * web globals: sandbox/isolate/options-reader.ts), and returns `options`, the metrics declared and
 * the data files opened.
 */
function readOptions(script: OptionsRequest): OptionsReply {
  let isolate;
  try {
    isolate = new (isolatedVm().Isolate)({ memoryLimit: OPTIONS_MEMORY_MB });
    const context = isolate.createContextSync();
    const factory = isolate
      .compileScriptSync(script.code, { filename: script.file })
      .runSync(context, { reference: true, timeout: OPTIONS_TIMEOUT_MS });
    const [text, metrics, data] = context.evalClosureSync(
      isolateSource('options'),
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
