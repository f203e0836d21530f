// Makes the built CLI entry executable, as npm does for an installed bin.
import { chmodSync } from 'node:fs';

chmodSync('dist/cli/bin.js', 0o755);
