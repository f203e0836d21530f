/**
 * Which frame a session's wait takes (model/plan/ws-session-plan.ts, FrameMatchPlan), as a test of
 * one frame. A binary frame is taken only by `any`. A text frame that is not JSON, or whose JSON
 * holds nothing at the path, is not taken by a json match; `equals` with a text value (rendered
 * from its template when the wait begins) takes a string equal to it, or a number or boolean whose
 * JSON text it is (variables are text: `{{id}}` equals the id 42); any other value compares as
 * JSON. The target writes the frames: one that cannot be read (nested too deep for jsonpath-plus)
 * is simply not taken.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FrameMatchPlan } from '../../model/plan/ws-session-plan.js';
import type { Random } from '../../model/random.js';
import { compiledPattern, firstJsonValue, jsonText, ParsedBody } from '../vars/extract.js';
import { compileTemplate, render, type CompiledTemplate } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';
import type { Frame } from './session-socket.js';

/** A frame test. */
export type FrameTest = (frame: Frame) => boolean;

/** Takes every frame. */
export const ANY_FRAME: FrameTest = () => true;

/** A frame match compiled once per endpoint; test() builds the test of one wait. */
export class FrameMatch {
  readonly #plan: FrameMatchPlan;
  readonly #equals: CompiledTemplate | undefined;

  constructor(plan: FrameMatchPlan) {
    this.#plan = plan;
    this.#equals =
      plan.kind === 'json' && plan.test.op === 'equalsText'
        ? compileTemplate(plan.test.text)
        : undefined;
  }

  /** The test of one wait, its text rendered now; undefined when a variable has no value. */
  test(vars: VariableStore, random: Random): FrameTest | undefined {
    const plan = this.#plan;
    if (plan.kind === 'any') return ANY_FRAME;
    if (plan.kind === 'regex') {
      const regex = compiledPattern(plan.pattern);
      return (frame) => !frame.binary && regex.test(frameText(frame));
    }
    const { evaluatorPath, test } = plan;
    let holds: (value: unknown) => boolean;
    switch (test.op) {
      case 'exists':
        holds = (value) => value !== undefined && value !== null;
        break;
      case 'equals':
        holds = (value) => isDeepStrictEqual(value, test.value);
        break;
      case 'matches': {
        const regex = compiledPattern(test.pattern);
        holds = (value) => {
          const text = jsonText(value);
          return text !== undefined && regex.test(text);
        };
        break;
      }
      case 'equalsText': {
        const expected = render(this.#equals!, vars, random);
        if (expected === undefined) return undefined;
        holds = (value) =>
          typeof value === 'string'
            ? value === expected
            : (typeof value === 'number' || typeof value === 'boolean') &&
              jsonText(value) === expected;
        break;
      }
    }
    return (frame) => {
      if (frame.binary) return false;
      try {
        const json = new ParsedBody(frameText(frame)).json;
        return json !== undefined && holds(firstJsonValue(json, evaluatorPath));
      } catch {
        return false;
      }
    };
  }
}

/** A frame's payload as UTF-8 text. */
export function frameText(frame: Frame): string {
  return frame.data.toString('utf8');
}
