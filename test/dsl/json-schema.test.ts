import t from 'tap';
import { readFileSync } from 'node:fs';
import { renderJsonSchema } from '../../dsl/schema/json-schema.js';

t.test(
  'the committed barrage.schema.json matches the zod schema (run `npm run schema` if not)',
  async (t) => {
    const committed = readFileSync(new URL('../../barrage.schema.json', import.meta.url), 'utf8');
    t.equal(committed, renderJsonSchema());
  },
);

t.test('the JSON Schema describes the file editors check', async (t) => {
  const schema = JSON.parse(renderJsonSchema()) as {
    properties: Record<string, { default?: unknown }>;
    additionalProperties: boolean;
  };
  t.equal(schema.additionalProperties, false, 'unknown keys are flagged by editors too');
  for (const key of [
    'target',
    'concurrency',
    'duration',
    'rate',
    'endpoints',
    'flows',
    'feeder',
    'auth',
    'pattern',
    'retry',
    'scenario',
    'report',
    'thresholds',
  ]) {
    t.ok(key in schema.properties, key);
  }
  t.equal(schema.properties.timeout?.default, '10s', 'defaults appear as users write them');
});
