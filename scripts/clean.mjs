// Removes build output before a build, so a deleted source file never survives in dist/.
import { rmSync } from 'node:fs';

for (const dir of process.argv.slice(2)) rmSync(dir, { recursive: true, force: true });
