/**
 * Stack positions in the bundle → positions in the user's .ts files, through the bundle's source
 * map (node:module's SourceMap, no dependency). The bundle runs under the file name
 * BUNDLE_NAME, so its frames are told apart from the bootstrap's.
 */
import { SourceMap, type SourceMapPayload } from 'node:module';
import type { ScriptPlan } from '../../model/plan/plan.js';

/** The file name the bundle is compiled under inside the isolate. */
export const BUNDLE_NAME = 'barrage-scenario-bundle.js';
/** The bundle starts on the second line of ScriptPlan.code (the wrapper's first line). */
const LINE_OFFSET = 1;
const FRAME = new RegExp(`${BUNDLE_NAME.replace(/\./g, '\\.')}:(\\d+):(\\d+)`, 'g');

/** Maps stacks of one scenario. */
export class SourcePositions {
  readonly #map: SourceMap;

  constructor(script: ScriptPlan) {
    this.#map = new SourceMap(JSON.parse(script.sourceMap) as SourceMapPayload);
  }

  /** file:line:column in the .ts sources for a 1-based bundle position, if the map knows it. */
  position(line: number, column: number): string | undefined {
    const entry = this.#map.findEntry(line - 1 - LINE_OFFSET, column - 1) as Partial<{
      originalSource: string;
      originalLine: number;
      originalColumn: number;
    }>;
    if (entry.originalSource === undefined || entry.originalLine === undefined) return undefined;
    return `${entry.originalSource}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
  }

  /** The first position of the user's code in a stack, mapped. */
  firstPosition(stack: string): string | undefined {
    for (const match of stack.matchAll(FRAME)) {
      const mapped = this.position(Number(match[1]), Number(match[2]));
      if (mapped !== undefined) return mapped;
    }
    return undefined;
  }
}
