/**
 * A virtual user's walk through its flow's steps (model/plan/scenario-graph.ts): endpoint
 * indexes in order, loops and branches entered as their conditions say. The walk is a stack of
 * frames, one per loop or branch entered, reused from one iteration to the next (a flow without
 * loops or ifs walks its one frame and allocates nothing).
 *
 * A loop's pass starts when its kind allows (`count` passes; `over`: the next item of the list
 * its variable held when the loop was entered, stored in `as`, an object's fields in `as.field`; `while`: the condition holds,
 * judged before each pass against the last response) and it has made fewer than `max` passes.
 * Conditions are judged when the walk reaches them, right after the request before: nothing a
 * think pause does changes what they read.
 */
import type { FlowStep, LoopStep } from '../../model/plan/scenario-graph.js';
import { holds, type ConditionContext } from '../checks/flow-condition.js';

/** One level of the walk: a list of steps, the next one, and its loop's state when it is one. */
interface Frame {
  steps: readonly FlowStep[];
  next: number;
  loop: LoopStep | undefined;
  /** Passes the loop has begun. */
  pass: number;
  /** An `over` loop's items, read when it was entered. */
  items: readonly unknown[];
}

const NO_ITEMS: readonly unknown[] = [];

/** The end of the walk: no step left. */
export const WALK_END = -1;

/** A virtual user's place in its flow. */
export class FlowWalk {
  readonly #frames: Frame[] = [];
  #depth = 0;

  /** Starts a walk of `steps`. */
  start(steps: readonly FlowStep[]): void {
    this.#depth = 0;
    this.#push(steps, undefined);
  }

  /** The next endpoint index, or WALK_END. */
  next(context: ConditionContext): number {
    for (;;) {
      const frame = this.#frames[this.#depth - 1]!;
      if (frame.next < frame.steps.length) {
        const step = frame.steps[frame.next++]!;
        if (typeof step === 'number') return step;
        if (step.kind === 'if') {
          const branch = holds(step.condition, context) ? step.then : step.else;
          if (branch.length > 0) this.#push(branch, undefined);
          continue;
        }
        const entered = this.#push(step.steps, step);
        if (step.over !== undefined) entered.items = listOf(context.vars.get(step.over));
        if (!this.#beginPass(entered, context)) this.#depth--;
        continue;
      }
      if (frame.loop !== undefined && this.#beginPass(frame, context)) continue;
      if (this.#depth === 1) return WALK_END;
      this.#depth--;
    }
  }

  #push(steps: readonly FlowStep[], loop: LoopStep | undefined): Frame {
    let frame = this.#frames[this.#depth];
    if (frame === undefined) {
      frame = { steps, next: 0, loop, pass: 0, items: NO_ITEMS };
      this.#frames.push(frame);
    } else {
      frame.steps = steps;
      frame.next = 0;
      frame.loop = loop;
      frame.pass = 0;
      frame.items = NO_ITEMS;
    }
    this.#depth++;
    return frame;
  }

  /** Begins the loop's next pass; false when it is over. */
  #beginPass(frame: Frame, context: ConditionContext): boolean {
    const loop = frame.loop!;
    if (frame.pass >= loop.max) return false;
    if (loop.count !== undefined && frame.pass >= loop.count) return false;
    if (loop.over !== undefined) {
      if (frame.pass >= frame.items.length) return false;
      const item = frame.items[frame.pass];
      const text = typeof item === 'string' ? item : JSON.stringify(item);
      // A value past the store's bounds ends the loop: its steps would read a stale item.
      if (!context.vars.set(loop.as!, text, typeof item !== 'string')) return false;
      if (!storeFields(context, loop.as!, item)) return false;
    }
    if (loop.while !== undefined && !holds(loop.while, context)) return false;
    frame.pass++;
    frame.next = 0;
    return true;
  }
}

/**
 * An object item's fields, each in `as.field` (`{{item.url}}`), a string as it is, anything else
 * as its JSON text; false when the store refused one.
 */
function storeFields(context: ConditionContext, as: string, item: unknown): boolean {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return true;
  for (const [key, value] of Object.entries(item)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (!context.vars.set(`${as}.${key}`, text, typeof value !== 'string')) return false;
  }
  return true;
}

/** The items of the JSON list a variable holds; a value that is not one is its own one item. */
function listOf(value: string | undefined): readonly unknown[] {
  if (value === undefined) return NO_ITEMS;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [value];
  } catch {
    return [value];
  }
}
