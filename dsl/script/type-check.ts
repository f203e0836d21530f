/**
 * Type-checks a TypeScript scenario before anything is sent (docs/scenarios.md, "Type checking"):
 * the entry file and the files it imports inside its folder, against the `barrage` module's
 * types (scenarios/barrage.d.ts), the sandbox's globals (scenarios/sandbox-globals.d.ts) and
 * ECMAScript 2024 — no DOM, no Node, as the isolate has neither — with the TypeScript compiler
 * API; then the floating promises (floating-promises.ts). Nothing here runs the scenario's code.
 * TypeScript (about 9 MB) is imported only when a scenario is checked.
 *
 * The program is as small as the check allows: the scenario's own files, the two declaration
 * files and the ES lib, `types: []` (no @types walk), skipLibCheck, no emit, nothing incremental.
 * It reads files through a host confined to the scenario's folder (scenario-compiler-host.ts).
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type TS from 'typescript';
import type { ConfigIssue } from '../issues.js';
import { findFloatingPromises } from './floating-promises.js';
import { scenarioCompilerHost } from './scenario-compiler-host.js';

/** The declaration files every scenario is checked against (shipped in the package's scenarios/). */
const DECLARATIONS = ['barrage.d.ts', 'sandbox-globals.d.ts'].map((name) =>
  fileURLToPath(
    new URL(
      `${import.meta.url.endsWith('.ts') ? '../..' : '..'}/scenarios/${name}`,
      import.meta.url,
    ),
  ),
);

/** More problems than this are summed up in one line: the first ones are what to fix. */
const MAX_ISSUES = 50;

/** Where the scenario is: its entry file, its (real) folder, and what paths are shown relative to. */
export interface TypeCheckInput {
  readonly entry: string;
  readonly folder: string;
  readonly cwd: string;
}

/** The type errors and floating promises of the scenario, in file order; empty when it checks. */
export async function typeCheckScenario(input: TypeCheckInput): Promise<ConfigIssue[]> {
  const ts = (await import('typescript')).default;
  const options: TS.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2024.d.ts'],
    types: [],
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    allowJs: true,
    skipLibCheck: true,
    noEmit: true,
    incremental: false,
  };
  const host = scenarioCompilerHost(ts, options, input.folder, DECLARATIONS);
  const program = ts.createProgram({
    rootNames: [input.entry, ...DECLARATIONS],
    options,
    host,
  });
  const checker = program.getTypeChecker();
  const own = program.getSourceFiles().filter((file) => host.isScenarioFile(file.fileName));
  const issues: ConfigIssue[] = program
    .getGlobalDiagnostics()
    .concat(program.getOptionsDiagnostics())
    .map((d) => typeIssue(ts, d, input));
  for (const file of own) {
    const diagnostics = program.getSyntacticDiagnostics(file);
    const all = diagnostics.length > 0 ? diagnostics : program.getSemanticDiagnostics(file);
    for (const d of all) issues.push(typeIssue(ts, d, input));
    if (diagnostics.length > 0) continue;
    for (const floating of findFloatingPromises(ts, checker, file))
      issues.push(floatingIssue(floating.call, file, floating.node.getStart(file), input));
  }
  return capped(issues, input);
}

function typeIssue(ts: typeof TS, d: TS.Diagnostic, input: TypeCheckInput): ConfigIssue {
  const message = ts
    .flattenDiagnosticMessageText(d.messageText, '\n')
    .split('\n')
    .map((line) => line.trim())
    .join(' ');
  return {
    code: 'type_error',
    source: at(d.file, d.start, input),
    path: [],
    expected: 'a scenario that type-checks',
    actual: message,
  };
}

function floatingIssue(
  call: string,
  file: TS.SourceFile,
  start: number,
  input: TypeCheckInput,
): ConfigIssue {
  return {
    code: 'type_error',
    source: at(file, start, input),
    path: [],
    expected: 'every promise awaited (or returned, assigned, passed on, voided)',
    actual: `${call}, not awaited: its call outlives the statement and its result is lost; write await ${call}`,
  };
}

function at(
  file: TS.SourceFile | undefined,
  start: number | undefined,
  input: TypeCheckInput,
): ConfigIssue['source'] {
  const shown = relative(input.cwd, file?.fileName ?? input.entry);
  if (file === undefined || start === undefined) return { kind: 'file', file: shown };
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return { kind: 'file', file: shown, line: line + 1, column: character + 1 };
}

function capped(issues: ConfigIssue[], input: TypeCheckInput): ConfigIssue[] {
  if (issues.length <= MAX_ISSUES) return issues;
  return [
    ...issues.slice(0, MAX_ISSUES),
    {
      code: 'type_error',
      source: { kind: 'file', file: relative(input.cwd, input.entry) },
      path: [],
      expected: 'a scenario that type-checks',
      actual: `${issues.length - MAX_ISSUES} more problems not shown (fix the first ones first)`,
    },
  ];
}
