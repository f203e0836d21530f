/**
 * One virtual user's place in its iteration (its walk through its flow's steps, its think pause),
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
import type { ConditionContext } from '../checks/flow-condition.js';
import type { Random } from '../../model/random.js';
import { ParsedBody } from '../vars/extract.js';
import type { VariableStore } from '../vars/variable-store.js';
import { FlowWalk, WALK_END } from './flow-walk.js';

/** One virtual user's place in its iteration; what its flow's conditions read. */
export class Cursor implements ConditionContext {
  /** The iteration's walk through its steps, the step whose request was sent last (-1: none yet), the next one. */
  readonly walk = new FlowWalk();
  last = -1;
  upcoming = WALK_END;
  /** An HTTP request of the flow was sent: the exchange holds the flow's last response. */
  responded = false;
  #parsed: ParsedBody | undefined;
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

  get vars(): VariableStore {
    return this.vu.vars;
  }

  get random(): Random {
    return this.vu.random;
  }

  get status(): number {
    return this.responded ? this.vu.exchange.status : 0;
  }

  body(): ParsedBody | undefined {
    if (!this.responded) return undefined;
    return (this.#parsed ??= new ParsedBody(this.vu.exchange.body()));
  }

  /** A request is sent: the body read so far is the last response's no more. */
  sending(http: boolean): void {
    this.#parsed = undefined;
    if (http) this.responded = true;
  }

  /** The think pause is over (or cut). */
  endThink(): void {
    this.thinking = undefined;
    if (this.vu.session === this.thinkWait) this.vu.session = undefined;
  }
}
