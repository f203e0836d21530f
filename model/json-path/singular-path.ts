/**
 * Singular JSONPath queries (RFC 9535 §2.3.5.1: names and indices only, no wildcard, slice,
 * descendant or filter), read from the RFC parser's segments into steps and walked directly. A
 * token stream reads a few of them from every event, where evaluating them with jsonpath-plus
 * would cost more than the event itself (docs/llm.md).
 */
import { parseJsonPathSyntax } from './json-path-syntax.js';

/** One step of a singular query: a member name, or an array index (negative: from the end). */
export type PathStep = string | number;

/** A singular query's steps, or why the query is not one (a sentence). */
export function singularSteps(query: string): readonly PathStep[] | string {
  const parsed = parseJsonPathSyntax(query);
  if (!parsed.ok) return `${parsed.failure.problem} at position ${parsed.failure.position}`;
  const steps: PathStep[] = [];
  for (const segment of parsed.segments) {
    const only = segment.selectors.length === 1 ? segment.selectors[0] : undefined;
    if (segment.descendant || only === undefined || (only.kind !== 'name' && only.kind !== 'index'))
      return 'only names and indices are read here (a singular query such as $.usage.total_tokens)';
    steps.push(only.kind === 'name' ? only.name : only.index);
  }
  return steps;
}

/** The value at `steps` in a parsed JSON value, undefined when there is none. */
export function readSteps(value: unknown, steps: readonly PathStep[]): unknown {
  let at = value;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(at)) return undefined;
      at = at[step < 0 ? at.length + step : step];
    } else {
      if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, step))
        return undefined;
      at = (at as Record<string, unknown>)[step];
    }
  }
  return at;
}
