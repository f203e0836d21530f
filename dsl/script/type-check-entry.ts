/**
 * Child-process entry that type-checks a scenario (type-check.ts): type-check-process.ts starts it
 * with the scenario's paths as its one argument, and the problems leave as JSON on stdout. A child
 * of its own so that barrage's process never holds TypeScript (about 100 MB of RSS once it has
 * checked a program) through a run, and so that the check overlaps the options reader's child.
 * Like cli/bin.ts it is an entry point, so it may touch `process`.
 */
import nodeModule from 'node:module';
import { typeCheckScenario, type TypeCheckInput } from './type-check.js';

// As cli/bin.ts does: V8's code for TypeScript's 9 MB, kept on disk, saves a third of the check.
nodeModule.enableCompileCache();
const input = JSON.parse(process.argv[2] ?? '') as TypeCheckInput;
process.stdout.write(JSON.stringify(await typeCheckScenario(input)));
