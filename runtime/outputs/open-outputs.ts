/**
 * The sinks of a run's outputs (docs/outputs.md), opened before the run starts so a file that
 * cannot be written fails it before anything is sent. Each kind's module is imported only when a
 * run uses it.
 */
import { resolve } from 'node:path';
import type { OutputPlan } from '../../model/plan/output-plan.js';
import type { OutputSink } from './output-sink.js';

/** Opens every output's sink; `cwd` resolves a json output's file, `warn` tells the user. */
export async function openOutputs(
  outputs: readonly OutputPlan[],
  cwd: string,
  warn: (text: string) => void,
): Promise<OutputSink[]> {
  return Promise.all(outputs.map((output) => openOutput(output, cwd, warn)));
}

async function openOutput(
  output: OutputPlan,
  cwd: string,
  warn: (text: string) => void,
): Promise<OutputSink> {
  switch (output.kind) {
    case 'json': {
      const { openJsonOutput } = await import('./json-output.js');
      return openJsonOutput(resolve(cwd, output.target), output.target);
    }
    case 'prometheus-rw': {
      const { openPrometheusOutput } = await import('./prometheus-output.js');
      return openPrometheusOutput(output, warn);
    }
    case 'otlp': {
      const { openOtlpOutput } = await import('./otlp-output.js');
      return openOtlpOutput(output);
    }
    case 'influxdb': {
      const { openInfluxOutput } = await import('./influx-output.js');
      return openInfluxOutput(output);
    }
  }
}
