/**
 * Live metric outputs (docs/outputs.md): where a run streams its figures while it goes, each
 * flushed every `periodMs`. Plain data: the runtime's outputs (runtime/outputs/) read it.
 */

/** The receivers barrage streams to. */
export type OutputKind = 'prometheus-rw' | 'otlp' | 'influxdb' | 'json';

/** Every output kind, as `--out kind=…` names it. */
export const OUTPUT_KINDS = [
  'prometheus-rw',
  'otlp',
  'influxdb',
  'json',
] as const satisfies readonly OutputKind[];

/** How Prometheus remote write sends a trend (docs/outputs.md, Trends). */
export type TrendAs = 'native' | 'stats';

/** One output. */
export interface OutputPlan {
  readonly kind: OutputKind;
  /** The receiver's URL (credentials taken out of it into `headers`), or the file of `json`. */
  readonly target: string;
  /** Headers sent with every request to the receiver (authorization among them). */
  readonly headers: Readonly<Record<string, string>>;
  /** prometheus-rw: trends as native histograms, or as gauges of their statistics. */
  readonly trendAs: TrendAs;
}

/** The run's outputs and their flush period. */
export interface OutputsPlan {
  readonly outputs: readonly OutputPlan[];
  readonly periodMs: number;
}
