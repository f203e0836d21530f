/**
 * A TypeScript scenario file → a ScriptPlan (DESIGN.md §8): esbuild bundles the file and its
 * local imports into one script with a source map. `barrage` resolves to the sandbox API
 * (sandbox-module.ts); any other package import, `node:` modules included, is refused here with
 * its file:line:column, since the sandbox has no module loader. A file that does not compile is a
 * validation error with esbuild's message and location.
 *
 * The code is wrapped so that running it yields a function of the API:
 *   (function (__barrageApi) {\n<bundle>\nreturn __scenario;\n})
 * so line n of the bundle is line n + 1 of the code (SCRIPT_LINE_OFFSET).
 */
import { buildSync, type BuildFailure, type Message, type Metafile } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigIssue, Source } from '../issues.js';
import type { ScriptBundle } from '../plan/plan.js';
import { err, ok, type Result } from '../result.js';

/** The alias target of `barrage` (the .ts source when barrage itself runs from sources). */
const API_MODULE = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? './sandbox-module.ts' : './sandbox-module.js',
    import.meta.url,
  ),
);

/** Where a scenario file is and how the user named it. */
export interface ScenarioFile {
  readonly path: string;
  /** The name as the user wrote it, for messages. */
  readonly shown: string;
  /** Where the `scenario` key came from (for a missing file). */
  readonly source: Source;
}

/** Bundles the scenario; every problem comes back as a ConfigIssue. */
export function bundleScenario(file: ScenarioFile): Result<ScriptBundle, ConfigIssue[]> {
  if (!existsSync(file.path)) {
    return err([
      {
        code: 'file_not_found',
        source: file.source,
        path: ['scenario'],
        expected: 'an existing TypeScript scenario file',
        actual: `"${file.shown}", which does not exist`,
      },
    ]);
  }
  const dir = dirname(file.path);
  const shownDir = dirname(file.shown);
  const at = (name: string): string => join(shownDir, name);
  try {
    const built = buildSync({
      entryPoints: [file.path],
      absWorkingDir: dir,
      bundle: true,
      write: false,
      format: 'iife',
      globalName: '__scenario',
      platform: 'neutral',
      target: 'es2022',
      packages: 'external',
      alias: { barrage: API_MODULE },
      sourcemap: 'external',
      sourcesContent: false,
      outfile: join(dir, '__barrage_bundle.js'),
      metafile: true,
      logLevel: 'silent',
    });
    const refused = externalImports(built.metafile, dir, at);
    if (refused.length > 0) return err(refused);
    const code = built.outputFiles.find((o) => o.path.endsWith('.js'))!.text;
    const map = built.outputFiles.find((o) => o.path.endsWith('.map'))!.text;
    return ok({
      file: file.shown,
      code: `(function (__barrageApi) {\n${code}\nreturn __scenario;\n})`,
      sourceMap: rebase(map, shownDir),
    });
  } catch (error) {
    const messages = (error as Partial<BuildFailure>).errors;
    if (!Array.isArray(messages)) throw error;
    return err(messages.map((m) => compileIssue(m, file, at)));
  }
}

/** Line offset of the bundle inside ScriptPlan.code (the wrapper's first line). */
export const SCRIPT_LINE_OFFSET = 1;

function compileIssue(m: Message, file: ScenarioFile, at: (name: string) => string): ConfigIssue {
  const location = m.location;
  return {
    code: 'script_error',
    source:
      location === null
        ? { kind: 'file', file: file.shown }
        : {
            kind: 'file',
            file: at(location.file),
            line: location.line,
            column: location.column + 1,
          },
    path: ['scenario'],
    expected: 'a TypeScript scenario that compiles',
    actual: m.text,
  };
}

/** Every import esbuild left external: a package or a node: module the sandbox cannot load. */
function externalImports(
  metafile: Metafile,
  dir: string,
  at: (name: string) => string,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [input, info] of Object.entries(metafile.inputs)) {
    for (const imported of info.imports) {
      if (imported.external !== true) continue;
      issues.push({
        code: 'script_error',
        source: locate(join(dir, input), at(input), imported.path),
        path: ['scenario'],
        expected: "imports of local files or 'barrage' only (the sandbox has no modules)",
        actual: `an import of "${imported.path}"`,
      });
    }
  }
  return issues;
}

/** The first quoted occurrence of a module name in a file, as file:line:column. */
function locate(path: string, shown: string, name: string): Source {
  const text = readFileSync(path, 'utf8');
  for (const quote of ["'", '"', '`']) {
    const index = text.indexOf(`${quote}${name}${quote}`);
    if (index < 0) continue;
    const before = text.slice(0, index).split('\n');
    return { kind: 'file', file: shown, line: before.length, column: before.at(-1)!.length + 1 };
  }
  return { kind: 'file', file: shown };
}

/** Makes the map's sources read as the user names files (relative to where they ran barrage). */
function rebase(map: string, shownDir: string): string {
  const parsed = JSON.parse(map) as { sources: string[] };
  parsed.sources = parsed.sources.map((s) => join(shownDir, s));
  return JSON.stringify(parsed);
}
