/**
 * What a run writes besides its reports, opened before any traffic: every output path checked
 * (nothing may block in open(2)), the HTTP debug log, and the live outputs (InfluxDB, OTLP, …).
 * A path it cannot write or an output it cannot open is a problem of the configuration: the run
 * is refused with exit 1 and nothing is sent.
 */
import type { Loaded } from '../../dsl/load-plan.js';
import { systemClock } from '../../runtime/schedule/clock.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import type { HttpDebugCounts } from '../../runtime/raw-result.js';
import type { BarrageContext } from '../context.js';
import type { HttpDebugLog } from '../http-debug-log.js';
import type { LiveOutputs } from '../live-outputs.js';
import { checkOutputPaths, outputPathsOf } from '../output-paths.js';
import type { Redactor } from '../render/redact.js';

/** The sinks a run opened; either may be absent (not asked for). */
export interface RunSinks {
  readonly debugLog: HttpDebugLog | undefined;
  readonly outputs: LiveOutputs | undefined;
}

/** How the sinks write to stderr: a line as it comes (held under the dashboard), a warning. */
export interface SinkLines {
  readonly stderr: (line: string) => boolean;
  readonly warn: (text: string) => void;
}

/** Opens the run's sinks; undefined when one could not be (said on stderr, nothing sent). */
export async function openRunSinks(
  loaded: Loaded,
  context: BarrageContext,
  redactor: Redactor,
  lines: SinkLines,
): Promise<RunSinks | undefined> {
  const { plan } = loaded;
  const unwritable = checkOutputPaths(context.cwd, outputPathsOf(plan));
  if (unwritable !== undefined) {
    context.stderr.write(`barrage: ${redactor.message(unwritable)} (nothing was sent)\n`);
    return undefined;
  }
  const debugLog =
    plan.httpDebug === undefined
      ? undefined
      : (await import('../http-debug-log.js')).HttpDebugLog.open(loaded, plan.httpDebug, {
          cwd: context.cwd,
          redactor,
          stderr: lines.stderr,
          warn: lines.warn,
          nowMs: () => systemClock.nowUs() / 1000,
        });
  try {
    // Imported only by a run that has outputs: the others load none of their machinery.
    const outputs =
      plan.outputs.outputs.length === 0
        ? undefined
        : await (
            await import('../live-outputs.js')
          ).startLiveOutputs(plan, context.cwd, lines.warn);
    return { debugLog, outputs };
  } catch (error) {
    context.stderr.write(
      `barrage: ${redactor.text(`cannot open the outputs: ${error instanceof Error ? error.message : String(error)}`)} (nothing was sent)\n`,
    );
    debugLog?.close();
    return undefined;
  }
}

/** The debug log's counts, with the lines the segments' own bound dropped; undefined when off. */
export function debugCounts(
  log: HttpDebugLog | undefined,
  snapshot: ShardSnapshot,
): HttpDebugCounts | undefined {
  if (log === undefined) return undefined;
  const own = log.counts();
  return { written: own.written, dropped: own.dropped + (snapshot.httpDebugDropped ?? 0) };
}
