// Writes barrage.schema.json from the zod schema (`npm run schema` runs it through tsx: dist/ is a
// bundle, with no module of its own per source file).
import { writeFileSync } from 'node:fs';
import { renderJsonSchema } from '../dsl/schema/json-schema.ts';

writeFileSync(new URL('../barrage.schema.json', import.meta.url), renderJsonSchema());
console.log('wrote barrage.schema.json');
