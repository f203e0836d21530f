/**
 * The scenario's optional `setup()` and `teardown(data)`, each run once per run by the first
 * scripted segment: setup() before traffic (the host hands its data to the other segments),
 * teardown() after the load has ended, stopped or not, with setup()'s data. Each has a virtual
 * user of its own (id 0) and the same API, and its requests go through the segment's own services
 * as the load's do (segment-services.ts: the configured auth, OAuth 2.0 tokens included; the
 * HTTP debug log), but they are not part of the measured load: they go to a recorder of their
 * own. setup()'s return value is copied (as JSON) into every iteration. setup() gets at most the
 * run's `timeout` and `stop_grace` to end, teardown() the run's grace (`timeout` and
 * GRACE_MARGIN_MS); then it is cut.
 */
import { importPlanReaders } from '../worker/plan-readers.js';
import type { ExchangeRecord } from '../../model/exchange-record.js';
import type { RunFailure } from '../../model/errors/run-failure.js';
import type { Plan, ScriptPlan } from '../../model/plan/plan.js';
import type { Clock } from '../schedule/clock.js';
import { Recorder } from '../metrics/recorder.js';
import { seededRandom } from '../../model/random.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { HttpDebugTap } from '../debug/http-debug-tap.js';
import { HardStopError } from '../../model/errors/barrage-error.js';
import { startDeadlineSweep } from '../user/deadline-sweep.js';
import { GRACE_MARGIN_MS } from '../../model/plan/scenario-plan.js';
import { RequestPath } from '../worker/request-path.js';
import { clientOptionsOf, VirtualUser } from '../user/virtual-user.js';
import { ConsoleLines } from '../script/console-lines.js';
import { Sandbox, type SandboxOutcome } from '../script/sandbox.js';
import { describeFailure, SCRIPT_MEMORY_MB } from '../script/script-runner.js';
import { ScriptOps } from '../script/script-ops.js';
import { ScriptUser, type Lane } from '../script/script-user.js';
import { SourcePositions } from '../script/source-position.js';
import { createSegmentServices, importServiceModules } from './segment-services.js';

/** The lane a hook runs on: no scenario, no iteration (exec.scenario throws there). */
const hookLane = (path: RequestPath, recorder: Recorder): Lane => ({
  path,
  recorder,
  exec: '',
  scenario: '',
  nextInTest: () => -1,
});

/** setup()'s data (teardown(): undefined), or why it failed (a line for the user). */
export type SetupResult =
  { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly message: string };

/** What a hook runs with besides the plan. */
export interface HookControl {
  readonly clock: Clock;
  readonly hardStop: AbortSignal;
  /** A line of the hook's console; absent: it prints nothing. */
  readonly onConsole?: (line: string) => void;
  /** A record of the HTTP debug log (the plan's `httpDebug`); absent: none is captured. */
  readonly onHttpDebug?: (record: ExchangeRecord) => void;
}

/**
 * Runs setup() when the scenario exports one (data undefined otherwise), cut past the run's
 * `timeout` and stop grace together: a setup that sleeps or waits on a hung target cannot hold
 * the run (and a stop signal) for longer.
 */
export async function runScenarioSetup(
  plan: Plan,
  script: ScriptPlan,
  control: HookControl,
): Promise<SetupResult> {
  const boundMs = plan.timeoutMs + plan.stopGraceMs;
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(), boundMs);
  try {
    const hardStop = AbortSignal.any([control.hardStop, bound.signal]);
    const result = await runHook(plan, script, { ...control, hardStop }, 'setup', undefined);
    if (result.ok || !bound.signal.aborted || control.hardStop.aborted) return result;
    return {
      ok: false,
      message: `setup() was cut: it ran for more than ${boundMs} ms (the run's timeout and stop_grace)`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs teardown(data) when the scenario exports one, cut past the run's grace. */
export async function runScenarioTeardown(
  plan: Plan,
  script: ScriptPlan,
  control: HookControl,
  data: unknown,
): Promise<SetupResult> {
  const grace = new AbortController();
  const timer = setTimeout(() => grace.abort(), plan.timeoutMs + GRACE_MARGIN_MS);
  try {
    const hardStop = AbortSignal.any([control.hardStop, grace.signal]);
    const result = await runHook(plan, script, { ...control, hardStop }, 'teardown', data);
    if (result.ok || !grace.signal.aborted || control.hardStop.aborted) return result;
    const graceMs = plan.timeoutMs + GRACE_MARGIN_MS;
    return {
      ok: false,
      message: `teardown() was cut: it ran for more than ${graceMs} ms (the run's timeout and a second)`,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A hook's virtual user and what its requests go through, assembled as a segment's are. */
interface HookUser {
  readonly vu: VirtualUser;
  readonly ops: ScriptOps;
  readonly now: () => number;
  /** Why the services ended the hook (an OAuth 2.0 token endpoint that gave up), if they did. */
  readonly failure: () => RunFailure | undefined;
  readonly close: () => Promise<void>;
}

async function hookUser(
  plan: Plan,
  script: ScriptPlan,
  control: HookControl,
  cut: () => void,
): Promise<HookUser> {
  const { clock, hardStop } = control;
  const [modules] = await Promise.all([importServiceModules(plan), importPlanReaders(plan)]);
  const startUs = clock.nowUs();
  const now = (): number => clock.nowUs() - startUs;
  const startedAt = clock.wallMs();
  const recorder = new Recorder({
    endpointCount: 0,
    segment: plan.segment,
    startedAt,
    openModel: false,
  });
  let failure: RunFailure | undefined;
  const fail = (given: RunFailure): void => {
    failure ??= given;
    cut();
  };
  const { auth } = createSegmentServices({ plan, recorder, now, fail }, modules);
  const { onHttpDebug } = control;
  const debug =
    plan.httpDebug === undefined || onHttpDebug === undefined
      ? undefined
      : new HttpDebugTap(plan.httpDebug, onHttpDebug, () => now() / 1000);
  const path = new RequestPath({
    recorder,
    now,
    auth,
    retry: plan.retry,
    budget: undefined,
    stopping: () => hardStop.aborted,
    cookies: plan.cookies,
    hosts: AllowedHosts.of(plan),
    capture: { startedAt, scenario: undefined, debug },
  });
  const vu = new VirtualUser(0, seededRandom(plan.seed), clientOptionsOf(plan));
  const user = new ScriptUser(vu, hookLane(path, recorder));
  const ops = new ScriptOps({
    plan,
    script,
    recorders: [recorder],
    auth,
    feeder: undefined,
    onFeederExhausted: () => undefined,
    user: () => user,
    hardStop,
    now,
  });
  await auth?.prepare?.();
  return {
    vu,
    ops,
    now,
    failure: () => failure,
    close: async () => {
      auth?.close();
      ops.close();
      await vu.close();
    },
  };
}

async function runHook(
  plan: Plan,
  script: ScriptPlan,
  control: HookControl,
  hook: 'setup' | 'teardown',
  data: unknown,
): Promise<SetupResult> {
  const { hardStop } = control;
  const stop = new AbortController();
  const user = await hookUser(plan, script, control, () => stop.abort());
  const { vu, ops, now } = user;
  const nowMs = (): number => now() / 1000;
  const emit = control.onConsole;
  const lines = emit === undefined ? undefined : new ConsoleLines(emit, nowMs);
  const sandbox = new Sandbox({
    plan: script,
    limits: { memoryMb: SCRIPT_MEMORY_MB, cpuMs: plan.timeoutMs, idleMs: plan.timeoutMs },
    ops,
    data,
    nowMs,
    onStray: () => undefined,
    onConsole: lines && ((_vu, level, text, dropped) => lines.write(hook, level, text, dropped)),
  });
  // A hard stop (the end of teardown()'s grace, or the services giving up) cuts the hook and
  // what it has in flight.
  const cut = (): void => {
    sandbox.cut();
    vu.abort(new HardStopError());
  };
  const signal = AbortSignal.any([hardStop, stop.signal]);
  signal.addEventListener('abort', cut);
  const stopSweep = startDeadlineSweep([vu], plan.timeoutMs, now);
  try {
    const outcome: SandboxOutcome = signal.aborted
      ? { kind: 'aborted' }
      : await (hook === 'setup' ? sandbox.setup(0) : sandbox.teardown(0));
    const failure = user.failure();
    if (failure !== undefined)
      return { ok: false, message: `${hook}() failed: ${failure.message}` };
    if (outcome.kind === 'ok') return { ok: true, data: outcome.data };
    const text = describeFailure(outcome, new SourcePositions(script), plan.timeoutMs);
    return { ok: false, message: `${hook}() failed: ${text}` };
  } finally {
    signal.removeEventListener('abort', cut);
    stopSweep();
    sandbox.dispose();
    lines?.close();
    await user.close();
  }
}
