// Writes runtime/outputs/proto/otlp-metrics.json, the JSON descriptor of the vendored OpenTelemetry
// .proto files that the otlp output loads with protobufjs/light (no parser at run time):
// `node --import tsx scripts/write-otlp-descriptor.mjs && npx prettier --write runtime/outputs/proto/otlp-metrics.json`.
// test/runtime/otlp-descriptor.test.ts fails when the two disagree.
import { writeFileSync } from 'node:fs';
import { loadOtlpProto } from '../test/helpers/otlp-proto.ts';

const file = new URL('../runtime/outputs/proto/otlp-metrics.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(loadOtlpProto().toJSON(), null, 2)}\n`);
console.log('wrote runtime/outputs/proto/otlp-metrics.json');
