/**
 * The scenario's optional `setup()`, run once per run before traffic (by the first scripted
 * segment; the host hands its data to the others). It has a virtual user of its own (id 0) and
 * the same API, but its requests are not part of the measured load: they go to a recorder of its
 * own. Its return value is copied (as JSON) into every iteration.
 */
import type { Plan, ScriptPlan } from '../../dsl/plan/plan.js';
import type { Clock } from '../deps.js';
import { Recorder } from '../metrics/recorder.js';
import { seededRandom } from '../random.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { RequestPath } from '../worker/request-path.js';
import { VirtualUser } from '../worker/virtual-user.js';
import { Sandbox } from './sandbox.js';
import { describeFailure, SCRIPT_MEMORY_MB } from './script-runner.js';
import { ScriptOps, ScriptUser } from './script-ops.js';
import { SourcePositions } from './source-position.js';

/** setup()'s data, or why it failed (a line for the user). */
export type SetupResult =
  { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly message: string };

/** Runs setup() when the scenario exports one (data undefined otherwise). */
export async function runScenarioSetup(
  plan: Plan,
  script: ScriptPlan,
  clock: Clock,
  hardStop: AbortSignal,
): Promise<SetupResult> {
  const startUs = clock.nowUs();
  const now = (): number => clock.nowUs() - startUs;
  const recorder = new Recorder({
    endpointCount: 0,
    segment: plan.segment,
    startedAt: clock.wallMs(),
    openModel: false,
  });
  const hosts = AllowedHosts.of(plan);
  const path = new RequestPath({
    recorder,
    now,
    auth: undefined,
    retry: plan.retry,
    budget: undefined,
    stopping: () => hardStop.aborted,
    cookies: plan.cookies,
    hosts,
  });
  const vu = new VirtualUser(0, seededRandom(plan.seed), {
    timeoutMs: plan.timeoutMs,
    insecure: plan.insecure,
  });
  const user = new ScriptUser(vu, { path, recorder, exec: '' });
  const ops = new ScriptOps({
    plan,
    script,
    recorders: [recorder],
    auth: undefined,
    feeder: undefined,
    onFeederExhausted: () => undefined,
    user: () => user,
    hardStop,
    now,
  });
  const sandbox = new Sandbox({
    plan: script,
    limits: { memoryMb: SCRIPT_MEMORY_MB, cpuMs: plan.timeoutMs, idleMs: plan.timeoutMs },
    ops,
    nowMs: () => now() / 1000,
    onStray: () => undefined,
  });
  try {
    const outcome = await sandbox.setup(0);
    if (outcome.kind === 'ok') return { ok: true, data: outcome.data };
    const text = describeFailure(outcome, new SourcePositions(script), plan.timeoutMs);
    return { ok: false, message: `setup() failed: ${text}` };
  } finally {
    sandbox.dispose();
    ops.close();
    await vu.close();
  }
}
