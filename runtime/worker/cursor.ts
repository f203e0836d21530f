/**
 * One virtual user's place in its iteration (the steps of its flow, the next one, its think pause),
 * kept in one object reused for every iteration, with its callbacks bound once. IterationRunner
 * moves it along; the request of each step is the request path's (request-path.ts).
 */
import type { ThinkRange } from '../../model/plan/endpoint-plan.js';
import type { LongTimeout } from '../schedule/long-timer.js';
import { NO_INTENDED_TIME } from '../schedule/permit-source.js';
import type { IterationCallbacks } from './iteration.js';
import type { RequestDone } from './request-path.js';
import type { Abortable } from '../../model/errors/barrage-error.js';
import type { VirtualUser } from '../user/virtual-user.js';

/** One virtual user's place in its iteration. */
export class Cursor {
  /** The iteration: endpoint indexes in order, the next one, the permit's intended time. */
  steps: readonly number[] = [];
  next = 0;
  /** The flow's pause between steps (none for a single endpoint). */
  flowThink: ThinkRange | undefined;
  /** The pause after the last step was taken: the next step goes on. */
  rested = false;
  thinking: LongTimeout | undefined;
  intendedUs = NO_INTENDED_TIME;
  /** When the iteration began (its permit taken), µs since dispatch start. */
  startUs = 0;
  iteration: IterationCallbacks | undefined;
  /** Bound once: the end of a step's request. */
  readonly stepDone: RequestDone;
  /** The end of a think pause, and the pause as what a stop cuts (the iteration then ends). */
  readonly thought: () => void;
  readonly thinkWait: Abortable;

  constructor(
    readonly vu: VirtualUser,
    guard: (cursor: Cursor, step: (cursor: Cursor) => void) => void,
    onStep: (cursor: Cursor) => void,
    onThinkCut: (cursor: Cursor) => void,
  ) {
    this.stepDone = () => onStep(this);
    this.thought = () => {
      this.endThink();
      guard(this, onStep);
    };
    this.thinkWait = {
      abort: () => {
        this.thinking?.clear();
        this.endThink();
        guard(this, onThinkCut);
      },
    };
  }

  /** The think pause is over (or cut). */
  endThink(): void {
    this.thinking = undefined;
    if (this.vu.session === this.thinkWait) this.vu.session = undefined;
  }
}
