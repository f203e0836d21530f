/**
 * The sources evaluated in a scenario's isolate, compiled from the TypeScript of sandbox/isolate/
 * (typed and linted with the project). Each entry is bundled by esbuild into one script that,
 * evaluated as an isolated-vm closure (evalClosureSync), calls the entry's `main` with the
 * closure's arguments $0…$n and returns what it returns: host handles arrive only as those
 * arguments, never on a global, and everything the entry's modules take at load (JSON.parse,
 * RegExp, Reflect.apply…) is taken before the scenario's code runs.
 *
 * Running from sources (tests under tsx), an entry is compiled on its first use, once per process.
 * dist/ holds no esbuild call for them: scripts/bundle.mjs compiles every entry with this very
 * module (Node strips its types: it imports only packages) and puts in its place a module that
 * returns the compiled texts. So this file imports no module of the project.
 */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The entries: their file under sandbox/isolate/ and how many closure arguments `main` takes. */
export const ISOLATE_ENTRIES = {
  /** The hub (records in and out in batches): no arguments. */
  hub: { file: 'hub.ts', arity: 0 },
  /** A virtual user's context: post, call, factory, vu, data, tables, web, env. */
  bootstrap: { file: 'bootstrap.ts', arity: 8 },
  /** The options reader's context (dsl/script/options-entry.ts): factory, web, env. */
  options: { file: 'options-reader.ts', arity: 3 },
} as const;

/** An entry's name. */
export type IsolateEntry = keyof typeof ISOLATE_ENTRIES;

/** What the bundle's IIFE assigns its exports to, a variable of the closure. */
const GLOBAL_NAME = '__isolate';

/** The closure source of an entry, compiled now (what bundle.mjs calls for each entry). */
export function compileIsolateSource(entry: IsolateEntry): string {
  const { file, arity } = ISOLATE_ENTRIES[entry];
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL(`./isolate/${file}`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: GLOBAL_NAME,
    platform: 'neutral',
    target: 'esnext',
    // The classes and functions a scenario sees keep their names (URL, Response, console output).
    keepNames: true,
    // Evaluated in every virtual user's context: no indentation or comments to parse.
    minifyWhitespace: true,
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const args = Array.from({ length: arity }, (_, i) => `$${i}`).join(', ');
  return `'use strict';\n${code}return ${GLOBAL_NAME}.main(${args});\n`;
}

const compiled = new Map<IsolateEntry, string>();

/** The closure source of an entry (see the file comment), compiled once per process. */
export function isolateSource(entry: IsolateEntry): string {
  let source = compiled.get(entry);
  if (source === undefined) {
    source = compileIsolateSource(entry);
    compiled.set(entry, source);
  }
  return source;
}
