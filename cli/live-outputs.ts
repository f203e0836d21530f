/**
 * The live outputs of `barrage run` (docs/outputs.md): opened before the run (a file that cannot
 * be written refuses the run before anything is sent), fed every live snapshot, ended with the
 * final one, drained after the reports are delivered, and summed up on stderr when a receiver
 * lost samples. A receiver's failure is a warning, never the run's exit code.
 */
import type { Plan } from '../model/plan/plan.js';
import type { Tags } from '../model/metrics/metric-registry.js';
import { systemClock } from '../runtime/schedule/clock.js';
import type { ShardSnapshot } from '../runtime/metrics/snapshot.js';
import { openOutputs } from '../runtime/outputs/open-outputs.js';
import { OutputRunner, type OutputStats } from '../runtime/outputs/output-runner.js';
import { endpointTable } from './endpoint-table.js';

/** The run's outputs, and how to tell the user about them. */
export interface LiveOutputs {
  /** The testid every series carries. */
  readonly testid: string;
  update(snapshot: ShardSnapshot): void;
  end(final: ShardSnapshot): void;
  /** Waits for the receivers (bounded); returns the lines that report lost samples. */
  drain(stop: AbortSignal): Promise<string[]>;
}

/** Opens the plan's outputs and starts their period. */
export async function startLiveOutputs(
  plan: Plan,
  cwd: string,
  warn: (text: string) => void,
): Promise<LiveOutputs> {
  const sinks = await openOutputs(plan.outputs.outputs, cwd, warn);
  const testid = plan.tags.testid ?? generatedTestid(systemClock.wallMs());
  const tags: Tags = {
    testid,
    ...(plan.segment.count > 1 ? { segment: `${plan.segment.index}/${plan.segment.count}` } : {}),
  };
  const runner = new OutputRunner(sinks, plan.outputs.periodMs, {
    wallMs: () => systemClock.wallMs(),
    table: (s) => endpointTable(plan, s),
    metrics: plan.metrics,
    thresholds: plan.thresholds,
    tags,
    warn,
  });
  return {
    testid,
    update: (s) => runner.update(s),
    end: (s) => runner.end(s),
    drain: async (stop) => (await runner.drain(stop)).flatMap(lossLine),
  };
}

/** A run's id when its tags name none: its start, to the second, and four random hex digits. */
function generatedTestid(wallMs: number): string {
  const start = new Date(wallMs).toISOString().slice(0, 19).replace(/[-:]/g, '');
  const random = Math.floor(Math.random() * 0x10000)
    .toString(16)
    .padStart(4, '0');
  return `${start}-${random}`;
}

/** The line of an output that lost samples or had sends fail; none when all went through. */
function lossLine(stats: OutputStats): string[] {
  if (stats.failed === 0 && stats.samplesLost === 0) return [];
  const sends = stats.sent + stats.failed;
  const failed =
    stats.failed === 0
      ? ''
      : `${stats.failed} of ${sends} sends failed (last: ${stats.lastError}); `;
  return [
    `output ${stats.kind} ${stats.target}: ${failed}${stats.samplesLost} of ${stats.samplesSent + stats.samplesLost} samples lost`,
  ];
}
