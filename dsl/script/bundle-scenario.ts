/**
 * A TypeScript scenario file → a ScriptPlan (DESIGN.md §8): esbuild bundles the file and its
 * local imports into one script with a source map. What the bundle may read is the scenario's
 * folder only (folder-boundary.ts); `barrage` resolves to the sandbox API (sandbox-module.ts).
 * No tsconfig.json is read (`tsconfigRaw` stands in for it), so neither `paths` nor `extends`
 * can reach out. A file that does not compile is a validation error with esbuild's message and
 * location.
 *
 * The code is wrapped so that running it yields a function of the API:
 *   (function (__barrageApi) {\n<bundle>\nreturn __scenario;\n})
 * so line n of the bundle is line n + 1 of the code (SCRIPT_LINE_OFFSET).
 */
import { build, type BuildFailure, type Message } from 'esbuild';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigIssue, Source } from '../issues.js';
import type { ScriptBundle } from '../../model/plan/plan.js';
import { err, ok, type Result } from '../result.js';
import { folderBoundary, type Refusal } from './folder-boundary.js';
import { scenarioFolder } from './scenario-folder.js';

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
export async function bundleScenario(
  file: ScenarioFile,
): Promise<Result<ScriptBundle, ConfigIssue[]>> {
  const notAFile = checkEntry(file);
  if (notAFile !== undefined) return err([notAFile]);
  const folder = scenarioFolder(file.path);
  const shownDir = dirname(file.shown);
  const at = (name: string): string => join(shownDir, name);
  try {
    const built = await build({
      entryPoints: [file.path],
      absWorkingDir: folder,
      bundle: true,
      write: false,
      format: 'iife',
      globalName: '__scenario',
      platform: 'neutral',
      target: 'es2022',
      plugins: [folderBoundary(folder, API_MODULE)],
      // Strict, as ES modules are; the same for every scenario, whatever tsconfig.json lies near.
      tsconfigRaw: { compilerOptions: { strict: true } },
      sourcemap: 'external',
      sourcesContent: false,
      outfile: join(folder, '__barrage_bundle.js'),
      logLevel: 'silent',
    });
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

/**
 * The entry file must exist and be a regular file: a FIFO would block esbuild's read forever, a
 * device such as /dev/zero never end, a directory is no scenario. stat does not open the file.
 */
function checkEntry(file: ScenarioFile): ConfigIssue | undefined {
  const issue = (actual: string, code: 'file_not_found' | 'file_unreadable'): ConfigIssue => ({
    code,
    source: file.source,
    path: ['scenario'],
    expected: 'an existing TypeScript scenario file',
    actual: `${JSON.stringify(file.shown)}, ${actual}`,
  });
  try {
    const stats = statSync(file.path);
    if (stats.isFile()) return undefined;
    const what = stats.isDirectory() ? 'a directory' : 'not a regular file';
    return issue(`which is ${what}`, 'file_unreadable');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? issue('which does not exist', 'file_not_found')
      : issue(`which cannot be read (${String(code)})`, 'file_unreadable');
  }
}

/** Line offset of the bundle inside ScriptPlan.code (the wrapper's first line). */
export const SCRIPT_LINE_OFFSET = 1;

function compileIssue(m: Message, file: ScenarioFile, at: (name: string) => string): ConfigIssue {
  const location = m.location;
  const refusal = isRefusal(m.detail) ? m.detail : undefined;
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
    expected: refusal?.expected ?? 'a TypeScript scenario that compiles',
    actual: refusal?.actual ?? m.text,
  };
}

function isRefusal(detail: unknown): detail is Refusal {
  return (
    typeof detail === 'object' && detail !== null && 'expected' in detail && 'actual' in detail
  );
}

/** Makes the map's sources read as the user names files (relative to where they ran barrage). */
function rebase(map: string, shownDir: string): string {
  const parsed = JSON.parse(map) as { sources: string[] };
  parsed.sources = parsed.sources.map((s) => join(shownDir, s));
  return JSON.stringify(parsed);
}
