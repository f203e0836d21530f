// Writes runtime/outputs/proto/prometheus/remote-write.json, the descriptor the prometheus-rw
// output loads (protobufjs/light's Root.fromJSON), from the vendored official .proto files beside
// it: run `node scripts/write-prometheus-proto.mjs` after changing them.
// test/runtime/prometheus-output.test.ts fails when the two disagree.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import protobuf from 'protobufjs';

const dir = new URL('../runtime/outputs/proto/prometheus/', import.meta.url);
const root = protobuf.loadSync(fileURLToPath(new URL('remote.proto', dir)));
const text = await format(JSON.stringify(root.toJSON()), { parser: 'json' });
writeFileSync(new URL('remote-write.json', dir), text);
console.log('wrote runtime/outputs/proto/prometheus/remote-write.json');
