/**
 * Iterations of a TypeScript scenario (DESIGN.md §3: one permit = one call of the default
 * export). Each virtual user runs in its own context of the segment's sandbox. A failed iteration
 * (a throw or rejection, the CPU or idle limit, the memory limit) is counted as a failed
 * iteration with its kind (script_error, script_timeout, script_memory), never as a request: its
 * requests were counted as they were sent. The run carries on. Its duration (iteration_duration)
 * runs from the call to the settled result, failed or not. Each distinct error is reported
 * once through onError, with the position in the .ts source.
 */
import type { ErrorKind } from '../../model/errors/error-kinds.js';
import type { IterationCallbacks } from '../worker/iteration.js';
import type { VirtualUser } from '../user/virtual-user.js';
import { Sandbox, type SandboxOutcome, type ScriptErrorInfo } from './sandbox.js';
import { RUN_ONLY, type Recorder } from '../metrics/recorder.js';
import { FIGURE } from '../../model/metrics/metric-figures.js';
import { ScriptOps, type ScriptOpsDeps } from './script-ops.js';
import { ScriptUser, type Lane } from './script-user.js';
import { SourcePositions } from './source-position.js';
import { ConsoleLines } from './console-lines.js';
import { isolateHeapMb } from '../../model/plan/isolate-heap.js';
import type { RunFailure } from '../../model/errors/run-failure.js';

/** Memory limit of setup()'s and teardown()'s isolate, MB (soft: V8 may overshoot it 2–3×). */
export const SCRIPT_MEMORY_MB = 128;
/** Distinct error messages reported per segment; later ones are only counted. */
const MAX_REPORTED = 20;

/** What a scripted segment needs: what its operations need, but the user table it keeps. */
export interface ScriptRunnerDeps extends Omit<ScriptOpsDeps, 'user'> {
  /** Where a failure of no iteration in particular (a promise never handled) is counted. */
  readonly strayRecorder: Recorder;
  /** The copy of setup()'s return value every iteration receives. */
  readonly setupData: unknown;
  /** A distinct script error, as a line for the user (positions in the .ts sources). */
  readonly onError: (text: string) => void;
  /** A line of the scenario's console (console-lines.ts); absent: console calls print nothing. */
  readonly onConsole?: (line: string) => void;
  /** The segment's virtual users at most: the isolate's heap is sized to them (isolate-heap.ts). */
  readonly vus: number;
  /** Stops the run as failed: the isolate passed its memory limit. */
  readonly fail: (failure: RunFailure) => void;
}

/** A virtual user of the scenario: what its operations need, and its iteration's end. */
class RunningUser extends ScriptUser {
  callbacks: IterationCallbacks | undefined;
  /** When its iteration's function was called, µs since dispatch start. */
  iterationStartUs = 0;
  constructor(
    vu: VirtualUser,
    lane: Lane,
    readonly iterated: (outcome: SandboxOutcome) => void,
  ) {
    super(vu, lane);
  }
}

/** Runs iterations of a scenario for the workers of one segment. */
export class ScriptRunner {
  readonly #sandbox: Sandbox;
  readonly #ops: ScriptOps;
  readonly #users = new Map<number, RunningUser>();
  readonly #positions: SourcePositions;
  readonly #reported = new Set<string>();
  readonly #console: ConsoleLines | undefined;
  readonly #memoryMb: number;
  /** Each virtual user's context is built on an event-loop turn of its own, in turn. */
  #prepared: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(private readonly deps: ScriptRunnerDeps) {
    this.#positions = new SourcePositions(deps.script);
    this.#ops = new ScriptOps({ ...deps, user: (id) => this.#users.get(id)! });
    const limitMs = deps.plan.timeoutMs;
    const nowMs = (): number => deps.now() / 1000;
    const lines =
      deps.onConsole === undefined ? undefined : new ConsoleLines(deps.onConsole, nowMs);
    this.#console = lines;
    const memoryMb = (this.#memoryMb = isolateHeapMb(deps.vus));
    this.#sandbox = new Sandbox({
      plan: deps.script,
      limits: { memoryMb, cpuMs: limitMs, idleMs: limitMs },
      ops: this.#ops,
      data: deps.setupData,
      nowMs,
      onStray: (failure) => this.#failed(failure, deps.strayRecorder),
      onConsole:
        lines && ((vu, level, text, dropped) => lines.write(`vu ${vu}`, level, text, dropped)),
      onOverrun: () => deps.fail({ code: 'script_memory', message: this.#overrunText() }),
    });
    deps.hardStop.addEventListener('abort', this.#cut);
  }

  /** A hard stop ends the iterations under way at once (their calls settle no more). */
  readonly #cut = (): void => this.#sandbox.cut();

  /**
   * Builds the worker's context before its first iteration, as k6 initializes its virtual users:
   * the first permits would otherwise wait for it. One context a turn of the event loop (each
   * takes milliseconds): a thousand built in one go held the thread for seconds, deaf to a stop.
   * None once the run stops. (The scenario's setup() runs once per run, in segment/scenario-hooks.ts.)
   */
  setup(vu: VirtualUser): Promise<void> {
    this.#prepared = this.#prepared.then(
      () =>
        new Promise((resolve) =>
          setImmediate(() => {
            if (!this.#stopped) this.#sandbox.prepare(vu.id);
            resolve();
          }),
        ),
    );
    return this.#prepared;
  }

  /**
   * One permit: one call of the function its scenario runs (`lane.exec`, the default export when
   * ''), counted in the scenario's shard. A virtual user keeps the lane of its first permit.
   */
  run(vu: VirtualUser, intendedUs: number, callbacks: IterationCallbacks, lane: Lane): void {
    lane.recorder.recordIteration();
    vu.iteration++;
    let user = this.#users.get(vu.id);
    if (user === undefined) {
      user = new RunningUser(vu, lane, (outcome) => this.#iterated(user!, outcome));
      this.#users.set(vu.id, user);
    }
    user.intendedUs = intendedUs;
    user.iterationInTest = lane.nextInTest();
    user.aborted = false;
    user.callbacks = callbacks;
    user.iterationStartUs = this.deps.now();
    this.#sandbox.iterate(vu.id, vu.iteration, user.iterated, lane.exec);
  }

  /** The run's time is up: the scenario's sockets close. */
  stop(): void {
    this.#stopped = true;
    this.#ops.stop();
  }

  #iterated(user: RunningUser, outcome: SandboxOutcome): void {
    this.#ops.endIteration(user.vu.id);
    user.lane.recorder.recordTrend(
      FIGURE.iteration_duration,
      RUN_ONLY,
      this.deps.now() - user.iterationStartUs,
    );
    // An iteration that aborted the test ends as one a stop cut (its throw is no script error).
    if (user.aborted) this.#failed({ kind: 'aborted' }, user.lane.recorder);
    else if (outcome.kind !== 'ok') this.#failed(outcome, user.lane.recorder);
    user.callbacks!.ended();
  }

  /** Why the run stopped when the isolate passed its memory limit. */
  #overrunText(): string {
    return `the scenario's isolate passed its memory limit (${this.#memoryMb} MB for ${this.deps.vus} virtual users); its iterations failed and the run stopped`;
  }

  /** Ends the sandbox, and the timers of its calls still waiting. */
  close(): void {
    this.deps.hardStop.removeEventListener('abort', this.#cut);
    this.#sandbox.dispose();
    this.#ops.close();
    this.#console?.close();
  }

  #failed(outcome: Exclude<SandboxOutcome, { kind: 'ok' }>, recorder: Recorder): void {
    recorder.recordIterationFailed(FAILURE_KINDS[outcome.kind]);
    // A stop cut it: counted, but not an error of the scenario's to report.
    if (outcome.kind === 'aborted') return;
    const text =
      outcome.kind === 'memory'
        ? `script_memory: ${this.#overrunText()}`
        : describeFailure(outcome, this.#positions, this.deps.plan.timeoutMs);
    if (this.#reported.size < MAX_REPORTED && !this.#reported.has(text)) {
      this.#reported.add(text);
      this.deps.onError(text);
    }
  }
}

const FAILURE_KINDS: Record<Exclude<SandboxOutcome, { kind: 'ok' }>['kind'], ErrorKind> = {
  error: 'script_error',
  timeout: 'script_timeout',
  memory: 'script_memory',
  aborted: 'aborted',
};

/** One line for the user: kind, .ts position, error. */
export function describeFailure(
  outcome: Exclude<SandboxOutcome, { kind: 'ok' }>,
  positions: SourcePositions,
  limitMs: number,
): string {
  if (outcome.kind === 'timeout')
    return `script_timeout: an iteration ran or awaited something other than barrage's API for more than ${limitMs} ms (timeout); it was cut`;
  if (outcome.kind === 'aborted')
    return 'aborted: the run was stopped while the scenario ran; it was cut';
  if (outcome.kind === 'memory')
    return `script_memory: the scenario's isolate passed its memory limit (${SCRIPT_MEMORY_MB} MB); its iterations failed`;
  return `script_error: ${errorText(outcome.error, positions)}`;
}

/**
 * Characters of a scenario's error name and message kept: a scenario may throw megabytes, which
 * would cross threads and processes at each distinct error (the CLI shows a few KiB of it).
 */
const MAX_ERROR_CHARS = 64 * 1024;

/** `file.ts:line:col: Name: message` (the position of the first frame in the user's code). */
export function errorText(error: ScriptErrorInfo, positions: SourcePositions): string {
  const at = positions.firstPosition(error.stack);
  const text = `${error.name}: ${error.message}`;
  return `${at === undefined ? '' : `${at}: `}${text.slice(0, MAX_ERROR_CHARS)}`;
}
