/** A parsed threshold expression (DESIGN.md §6), plain data. */

/** Comparison operators of the threshold grammar. */
export type ThresholdOperator = '<' | '<=' | '>' | '>=' | '==';

/** A k6 spelling read as barrage's: what was written (`p(95)`) and what it stands for (`p95`). */
export interface ThresholdAlias {
  readonly written: string;
  readonly as: string;
}

/** `<metric>[{endpoint=name}]:<aggregate> <op> <number>` (`{check=name}` on checks), split into its parts. */
export interface ThresholdSpec {
  /** The expression as the user wrote it, k6 spellings rewritten to barrage's (`p(95)` → `p95`). */
  readonly expression: string;
  /** The k6 spellings that were rewritten, when there were any (validate notes them). */
  readonly aliases?: readonly ThresholdAlias[];
  readonly metric: string;
  /**
   * Tag filters: `endpoint`, or `check` (a check's name) on the checks metric; `scenario` on any
   * (a named scenario's own figures).
   */
  readonly tags: Readonly<Record<string, string>>;
  /** The aggregate in barrage's spelling: p95, p99.9, avg, mean, min, max, rate, count. */
  readonly aggregate: string;
  /** For pNN aggregates, the percentile (0 < p <= 100). */
  readonly percentile?: number;
  readonly operator: ThresholdOperator;
  /**
   * The limit. For a relative threshold, 0 until the baseline is read, then the baseline's value
   * × factor + offset (cli/compare/baseline.ts sets it before anything is sent).
   */
  readonly expected: number;
  /** Present when the limit is the baseline run's own figure (`< baseline * 1.10`). */
  readonly relative?: RelativeLimit;
  /**
   * Present when the threshold stops the run as soon as it fails (`abort_on_fail`), judged on
   * every live snapshot from `delayMs` after dispatch began; absent, it is judged at the end only.
   */
  readonly abortOnFail?: AbortOnFail;
}

/** When a failing threshold stops the run: not before `delayMs` of dispatch (the warm-up guard). */
export interface AbortOnFail {
  readonly delayMs: number;
}

/** `baseline`, `baseline * factor`, `baseline + n` or `baseline - n`: limit = b × factor + offset. */
export interface RelativeLimit {
  readonly factor: number;
  readonly offset: number;
  /** The baseline run's figure, once read (absent while the plan is being validated). */
  readonly baseline?: number;
}
