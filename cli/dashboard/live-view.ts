/**
 * Which live output a run gets, and the view that draws it:
 *
 *   --quiet                                                    nothing
 *   stdout a terminal, not CI, TERM not dumb, neither
 *   --no-dashboard nor --json-output                           the full-screen dashboard
 *   otherwise                                                  a progress line on stderr every 5 s
 *
 * "CI" is the CI environment variable set to anything but "", "0" or "false" (CI services set
 * CI=true; some set 1). Color follows the text report: on a terminal, unless NO_COLOR is set.
 */
import type { Loaded } from '../../dsl/load-plan.js';
import type { ShardSnapshot } from '../../runtime/metrics/snapshot.js';
import type { LiveState } from '../../runtime/segment/live-state.js';
import type { BarrageContext } from '../context.js';
import { Redactor } from '../render/redact.js';
import { Dashboard } from './dashboard.js';
import { ProgressLines } from './progress-line.js';

/** The live output of a run. */
export type LiveMode = 'dashboard' | 'progress' | 'off';

/** What decides the live output. */
export interface LiveModeInputs {
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** False with --no-dashboard. */
  readonly dashboard: boolean;
  readonly jsonOutput: boolean;
  readonly quiet: boolean;
}

/** The live output these flags, this terminal and this environment call for. */
export function chooseLiveMode(inputs: LiveModeInputs): LiveMode {
  if (inputs.quiet) return 'off';
  const ci = inputs.env.CI;
  const inCi = ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  const capable = inputs.isTTY && inputs.env.TERM !== 'dumb';
  return capable && !inCi && inputs.dashboard && !inputs.jsonOutput ? 'dashboard' : 'progress';
}

/** A live view of a running test. */
export interface LiveView {
  /** True while the view draws on the terminal: stderr messages would tear it, so hold them. */
  readonly ownsTerminal: boolean;
  /** The latest cumulative snapshot and live state. */
  update(snapshot: ShardSnapshot, live: LiveState): void;
  /** Stops the view; the dashboard restores the terminal. Idempotent. */
  close(): void;
}

/** How the run is stopped from the view. */
export interface LiveViewControl {
  /** Aborted once the run is stopping. */
  readonly stopping: AbortSignal;
  /** A quit key was pressed (the same path as SIGINT). */
  readonly onQuit: () => void;
}

/** Starts the live view of `mode` (the dashboard takes the terminal now). */
export function openLiveView(
  context: BarrageContext,
  loaded: Loaded,
  mode: LiveMode,
  control: LiveViewControl,
): LiveView {
  if (mode === 'off')
    return { ownsTerminal: false, update: () => undefined, close: () => undefined };
  if (mode === 'progress') {
    const lines = new ProgressLines((line) => context.stderr.write(line));
    return { ownsTerminal: false, update: (s) => lines.update(s), close: () => undefined };
  }
  const dashboard = new Dashboard(context, {
    plan: loaded.plan,
    title: runTitle(loaded),
    endpointNames: shownNames(loaded),
    color: context.env.NO_COLOR === undefined,
    stopping: control.stopping,
    onQuit: control.onQuit,
  });
  dashboard.start();
  let open = true;
  return {
    get ownsTerminal() {
      return open;
    },
    update: (snapshot, live) => dashboard.update(snapshot, live),
    close: () => {
      open = false;
      dashboard.close();
    },
  };
}

/**
 * The names of a snapshot's endpoints as the reports show them, secrets removed: those a
 * TypeScript scenario met (the snapshot's), else the plan's. The last list is kept, so a tick
 * redacts only when the names changed (a scenario met a new request), not for each merged copy.
 */
function shownNames(loaded: Loaded): (snapshot: ShardSnapshot | undefined) => readonly string[] {
  const redactor = new Redactor(loaded);
  const planned = loaded.plan.graph.endpoints.map((e) => redactor.text(e.name));
  let met: readonly string[] | undefined;
  let shown: readonly string[] = [];
  return (snapshot) => {
    const names = snapshot?.endpointNames;
    if (names === undefined) return planned;
    if (met === undefined || names.length !== met.length || names.some((n, i) => n !== met![i])) {
      met = names;
      shown = names.map((name) => redactor.text(name));
    }
    return shown;
  };
}

/**
 * The header's name for the run: the target's origin and path (no credentials, no query string,
 * which may carry keys), `[redacted]` when it came from ${ENV}, or the scenario file.
 */
export function runTitle(loaded: Loaded): string {
  const target = loaded.plan.target;
  if (target === undefined) return loaded.plan.script?.file ?? 'barrage run';
  const redactor = new Redactor(loaded);
  if (redactor.isSecret(['target'])) return String(redactor.value(['target'], target));
  try {
    const url = new URL(target);
    return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return redactor.text(target);
  }
}
