// Builds dist/ (`npm run build`): esbuild bundles barrage and its dependencies into a few files,
// so that a start reads a handful of files instead of ~300 modules (docs/performance.md, start-up).
// Every entry point is a process or thread of its own; `splitting` puts what an entry imports only through `import()`
// (zod and yaml for validate, undici for run, the HTML report) into chunks loaded on that call.
// All files land flat in dist/: code that finds an entry with `new URL('./x.js', import.meta.url)`
// then finds it from whichever chunk it ended up in. Types are checked by `npm run typecheck`.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import { BANNER, PLUGINS } from './bundle-options.mjs';

const ENTRIES = [
  'cli/bin.ts',
  'runtime/segment/child-entry.ts',
  'runtime/segment/segment-entry.ts',
  'runtime/segment/orphan-watch.ts',
  'dsl/script/options-entry.ts',
  'dsl/script/type-check-entry.ts',
  'dsl/har/har-import-entry.ts',
];

const result = await build({
  entryPoints: ENTRIES,
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
  logLevel: 'warning',
  plugins: PLUGINS,
  // Native modules load their binaries from their own folders; esbuild's API runs its binary.
  // bufferutil and utf-8-validate are optional speed-ups ws requires when installed. TypeScript
  // reads its lib files from its own folder, and is 9 MB that only a scenario's type check loads.
  external: [
    'esbuild',
    'isolated-vm-6',
    'isolated-vm-7',
    'bufferutil',
    'utf-8-validate',
    'typescript',
  ],
  // Their ES module builds: `import()` of a CommonJS package yields only a default export here.
  alias: {
    clipanion: './node_modules/clipanion/lib/advanced/index.mjs',
    typanion: './node_modules/typanion/lib/index.mjs',
  },
  banner: BANNER,
});

// What a scenario's bundle aliases `barrage` to (bundle-scenario.ts): one file of its own, which
// imports nothing (the sandbox has no modules to import).
await build({
  entryPoints: ['dsl/script/sandbox-module.ts'],
  outdir: 'dist',
  format: 'esm',
  platform: 'neutral',
  logLevel: 'warning',
});

// `import()` of a CommonJS module would resolve to { default } and lose its named exports.
const cjsImports = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
  input.imports
    .filter((i) => i.kind === 'dynamic-import' && result.metafile.inputs[i.path]?.format === 'cjs')
    .map((i) => `${file}: import('${i.original ?? i.path}')`),
);
if (cjsImports.length > 0) {
  console.error(
    `dynamic imports of CommonJS modules (import an ES module instead):\n${cjsImports.join('\n')}`,
  );
  process.exit(1);
}
chmodSync('dist/bin.js', 0o755);
