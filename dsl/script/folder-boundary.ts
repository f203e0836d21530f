/**
 * The esbuild plugin that keeps a scenario's imports inside its folder (docs/scenarios.md,
 * "Security model"). Every import path esbuild meets goes through onResolve, whatever its kind
 * (`import`, `require`, `import()` of a literal) and whatever its attributes (`with { type: 'text'
 * }` reads a file as a string, `'bytes'` as bytes, `'json'` as data): each is one more way to read
 * a file, so each gets the same check.
 *
 * - `barrage` resolves to the sandbox API module; any other bare name (a package, `node:fs`, a
 *   tsconfig `paths` alias, `#imports`, `data:`) is refused: the sandbox loads no modules.
 * - A relative or absolute path is refused before esbuild looks it up when it lies outside the
 *   folder, then resolved by esbuild, and refused again when the file it found is outside the
 *   folder by its real path (a symlink inside pointing out) or is not a regular file (a FIFO or a
 *   device, whose read would hang or never end).
 *
 * A refusal is an esbuild error carrying its ConfigIssue text in `detail`; esbuild adds the
 * importing file:line:column. What the file holds is never read, let alone printed.
 */
import type { Plugin, PluginBuild, OnResolveArgs, OnResolveResult } from 'esbuild';
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { isInsideFolder } from './scenario-folder.js';

/** What a refused import puts in its esbuild message's `detail`. */
export interface Refusal {
  readonly expected: string;
  readonly actual: string;
}

/** Marks the plugin's own lookups through build.resolve, which run the plugin again. */
const LOOKUP = Symbol('barrage lookup');

/** The plugin: `folder` is the real path of the scenario's folder, `api` the `barrage` module. */
export function folderBoundary(folder: string, api: string): Plugin {
  return {
    name: 'barrage-folder-boundary',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) =>
        args.pluginData === LOOKUP || args.kind === 'entry-point'
          ? undefined
          : checkImport(build, args, folder, api),
      );
    },
  };
}

async function checkImport(
  build: PluginBuild,
  args: OnResolveArgs,
  folder: string,
  api: string,
): Promise<OnResolveResult | undefined> {
  if (args.path === 'barrage') return { path: api };
  const quoted = `an import of ${JSON.stringify(args.path)}`;
  if (!args.path.startsWith('.') && !isAbsolute(args.path)) {
    return refuse({
      expected: "imports of local files or 'barrage' only (the sandbox has no modules)",
      actual: quoted,
    });
  }
  const inside = `files inside the scenario's folder (${folder})`;
  if (!isInsideFolder(folder, resolve(args.resolveDir, args.path)))
    return refuse({ expected: inside, actual: `${quoted}, which is outside it` });
  const found = await build.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: args.resolveDir,
    with: args.with,
    pluginData: LOOKUP,
  });
  if (found.errors.length > 0) return { errors: found.errors };
  if (!isInsideFolder(folder, found.path)) {
    return refuse({
      expected: inside,
      actual: `${quoted}, which leads outside it (to ${relative(folder, found.path)})`,
    });
  }
  if (!statSync(found.path).isFile())
    return refuse({ expected: 'a regular file', actual: `${quoted}, which is not one` });
  const { path, namespace, suffix, sideEffects } = found;
  return { path, namespace, suffix, sideEffects };
}

function refuse(detail: Refusal): OnResolveResult {
  return { errors: [{ text: `${detail.actual}: expected ${detail.expected}`, detail }] };
}
