import t from 'tap';
import { readFileSync } from 'node:fs';
import { loadOtlpProto } from '../helpers/otlp-proto.js';

t.test(
  'the committed OTLP descriptor equals the vendored .proto files (run scripts/write-otlp-descriptor.mjs if not)',
  async (t) => {
    const committed: unknown = JSON.parse(
      readFileSync(
        new URL('../../runtime/outputs/proto/otlp-metrics.json', import.meta.url),
        'utf8',
      ),
    );
    t.same(committed, loadOtlpProto().toJSON());
  },
);

t.test('the vendored .proto files say where they come from and keep their licence', async (t) => {
  for (const file of [
    'common/v1/common.proto',
    'resource/v1/resource.proto',
    'metrics/v1/metrics.proto',
    'collector/metrics/v1/metrics_service.proto',
  ]) {
    const text = readFileSync(
      new URL(`../../runtime/outputs/proto/opentelemetry/proto/${file}`, import.meta.url),
      'utf8',
    );
    t.match(
      text,
      `https://github.com/open-telemetry/opentelemetry-proto/blob/v0.18.0/opentelemetry/proto/${file}`,
      `${file}: source`,
    );
    t.match(text, 'Licensed under the Apache License, Version 2.0', `${file}: licence`);
  }
});
