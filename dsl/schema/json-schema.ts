/**
 * barrage.schema.json, generated from the zod schema (the input side: what users write). It is
 * committed so editors with a YAML language server complete and check keys, and read at run time
 * (config-json-schema.ts); a test fails when the committed file is stale (`npm run schema`
 * rewrites it).
 */
import * as z from 'zod';
import { configSchema } from './config-schema.js';
import { OUTPUT_TEXT_JSON_SCHEMA } from './outputs-schema.js';

/** The JSON Schema text, stable across runs (2-space indent, trailing newline). */
export function renderJsonSchema(): string {
  const generated = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
  const outputs = generated.properties?.outputs;
  if (
    typeof outputs === 'object' &&
    typeof outputs.items === 'object' &&
    !Array.isArray(outputs.items)
  )
    outputs.items = { anyOf: [OUTPUT_TEXT_JSON_SCHEMA, outputs.items] };
  const document = {
    ...generated,
    $id: 'https://github.com/barrage/barrage/barrage.schema.json',
    title: 'barrage configuration',
    description: 'Configuration of a barrage load test (YAML or JSON). See docs/configuration.md.',
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
