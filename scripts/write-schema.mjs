// Writes barrage.schema.json from the built zod schema (run by `npm run schema`).
import { writeFileSync } from 'node:fs';
import { renderJsonSchema } from '../dist/dsl/schema/json-schema.js';

writeFileSync(new URL('../barrage.schema.json', import.meta.url), renderJsonSchema());
console.log('wrote barrage.schema.json');
