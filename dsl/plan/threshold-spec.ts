/** A parsed threshold expression (DESIGN.md §6), plain data. */

/** Comparison operators of the threshold grammar. */
export type ThresholdOperator = '<' | '<=' | '>' | '>=' | '==';

/** `<metric>[{endpoint=name}]:<aggregate> <op> <number>`, split into its parts. */
export interface ThresholdSpec {
  /** The expression exactly as the user wrote it. */
  readonly expression: string;
  readonly metric: string;
  /** Tag filters; only `endpoint` exists today. */
  readonly tags: Readonly<Record<string, string>>;
  /** The aggregate as written: p95, p99.9, avg, mean, min, max, rate, count. */
  readonly aggregate: string;
  /** For pNN aggregates, the percentile (0 < p <= 100). */
  readonly percentile?: number;
  readonly operator: ThresholdOperator;
  readonly expected: number;
}
