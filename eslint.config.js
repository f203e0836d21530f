// Lint rules that keep the architecture of DESIGN.md §1 and STYLE.md "Our rules" honest.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Named exports only (and, per folder, the dynamic imports rankRules forbids). */
const NAMED_EXPORTS = { selector: 'ExportDefaultDeclaration', message: 'Named exports only.' };

const noProcess = {
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'Only cli/bin.ts touches process; pass what you need in.' },
  ],
};

/**
 * Import patterns a room may not use (docs/architecture.md): dependencies flow cli → dsl, runtime;
 * dsl and runtime → sandbox (what a scenario's isolate is given) → native (the isolated-vm
 * loader); every room → model (plain data and pure functions), which imports none of them.
 */
function forbid(patterns) {
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['node:process', 'process'], message: 'Only cli/bin.ts touches process.' },
          ...patterns,
        ],
      },
    ],
  };
}

/** What no file of runtime may import. */
const RUNTIME_PATTERNS = [
  { group: ['**/cli/**', '**/dsl/**'], message: 'runtime depends on neither dsl nor cli.' },
  {
    group: ['zod', 'yaml', 'esbuild'],
    message: 'runtime reads the compiled Plan, not the config.',
  },
];

/**
 * The folders of a room by rank, lowest first (docs/architecture.md, "What may import what"): a
 * file may import its own folder and folders of lower ranks only, so no folder depends on one
 * above it and no two folders depend on each other. `top` is the room's own top-level files
 * (runtime's front door: execute, merge-raw, raw-result; cli's helpers of the commands), which
 * the folders below it may not import.
 */
const RANKS = {
  runtime: [
    ['failure', 'feeder', 'metrics', 'schedule'],
    ['vars', 'thresholds', 'split'],
    ['checks', 'outputs'],
    ['http'],
    ['auth', 'debug', 'user'],
    ['ws'],
    ['socketio', 'grpc'],
    ['worker'],
    ['executor'],
    ['script'],
    ['segment'],
    ['top'],
  ],
  cli: [['serve'], ['render'], ['top'], ['dashboard', 'compare'], ['commands']],
};

/**
 * The rule against a dynamic `import()` whose path matches one of `patterns`' regexes (the rule
 * no-restricted-imports checks static imports only). An esquery regex may hold no slash: each is
 * written \x2F.
 */
function noDynamicImports(patterns) {
  const dynamic = patterns
    .filter((p) => p.regex !== undefined)
    .map((p) => ({
      selector: `ImportExpression[source.value=/${p.regex.replaceAll('/', '\\x2F')}/]`,
      message: p.message,
    }));
  return { 'no-restricted-syntax': ['error', NAMED_EXPORTS, ...dynamic] };
}

/** A room's per-folder rules: its room-wide patterns plus the folders a folder may not import. */
function rankRules(room, roomPatterns, ignores = []) {
  const ranks = RANKS[room];
  return ranks.flatMap((folders, rank) =>
    folders.map((folder) => {
      const above = ranks
        .slice(rank)
        .flat()
        .filter((f) => f !== folder);
      const upward = above.filter((f) => f !== 'top');
      const patterns = [...roomPatterns];
      const inFolder = folder !== 'top';
      if (upward.length > 0)
        patterns.push({
          regex: `^${inFolder ? '\\.\\./' : '\\./'}(${upward.join('|')})/`,
          message: `${room}/${folder} may not import ${room} folders of its rank or above (${upward.join(', ')}).`,
        });
      if (inFolder && above.includes('top'))
        patterns.push({
          regex: '^\\.\\./[^/]+\\.js$',
          message: `${room}/${folder} may not import ${room}'s top-level files, which stand above it.`,
        });
      return {
        files: inFolder ? [`${room}/${folder}/**/*.ts`] : [`${room}/*.ts`],
        ignores,
        rules: { ...forbid(patterns), ...noDynamicImports(patterns) },
      };
    }),
  );
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tap/**', 'coverage/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', NAMED_EXPORTS],
    },
  },
  {
    // TypeScript scenarios: `export default async function` is their contract (DESIGN.md §8).
    files: ['scenarios/**/*.ts', 'test/fixtures/scenarios/**/*.ts', 'bench/scenarios/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: [
      'cli/**/*.ts',
      'dsl/**/*.ts',
      'runtime/**/*.ts',
      'native/**/*.ts',
      'model/**/*.ts',
      'sandbox/**/*.ts',
    ],
    // The process entry points: the CLI, the child process of a scripted segment with its watch
    // thread, and the ones that read a scenario's options and type-check it.
    ignores: [
      'cli/bin.ts',
      'runtime/segment/child-entry.ts',
      'runtime/segment/orphan-watch.ts',
      'dsl/script/options-entry.ts',
      'dsl/script/type-check-entry.ts',
    ],
    rules: noProcess,
  },
  {
    files: ['cli/**/*.ts'],
    ignores: ['cli/bin.ts'],
    rules: forbid([]),
  },
  // The entry points (bin.ts, main.ts) register and run the commands: above every folder.
  ...rankRules('cli', [], ['cli/bin.ts', 'cli/main.ts']),
  {
    files: ['dsl/**/*.ts'],
    rules: forbid([
      { group: ['**/runtime/**', '**/cli/**'], message: 'dsl depends on neither runtime nor cli.' },
    ]),
  },
  ...rankRules('runtime', RUNTIME_PATTERNS),
  {
    // What a scenario's isolate is given, shared by the options reader (dsl) and the virtual users
    // (runtime): the web globals and their host side, the metric classes, the removed globals.
    files: ['sandbox/**/*.ts'],
    rules: forbid([
      {
        group: ['**/cli/**', '**/dsl/**', '**/runtime/**'],
        message: 'sandbox depends on model and native only.',
      },
    ]),
  },
  {
    // The native addon's loader, shared by dsl (reading a scenario's options) and runtime.
    files: ['native/**/*.ts'],
    rules: forbid([
      {
        group: ['**/cli/**', '**/dsl/**', '**/runtime/**', '**/sandbox/**', '**/model/**'],
        message: 'native depends on no room.',
      },
    ]),
  },
  {
    // The ground floor: plain data and pure functions that dsl and runtime share (the Plan, the
    // metric registry, error kinds, JSONPath, value encoding, the exchange record).
    files: ['model/**/*.ts'],
    rules: forbid([
      {
        group: ['**/cli/**', '**/dsl/**', '**/runtime/**', '**/sandbox/**', '**/native/**'],
        message: 'model depends on no room: it is the floor the others stand on.',
      },
      {
        regex: '^(?!\\.)',
        message: 'model is plain data and pure functions: no package or node: module.',
      },
    ]),
  },
  {
    files: ['**/*.js', '**/*.mjs', 'scripts/**'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The sandbox's web globals, declared as lib.dom declares them (`declare var`); outside the
    // project, whose @types/node declares the same names.
    files: ['scenarios/sandbox-globals.d.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { projectService: false } },
    rules: { ...tseslint.configs.disableTypeChecked.rules, 'no-var': 'off' },
  },
  {
    // k6 scripts kept beside their barrage ports (docs/from-k6.md), as k6 runs them: k6's globals
    // and its default export. barrage never runs them.
    files: ['scenarios/from-k6/*.k6.js'],
    languageOptions: {
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' },
    },
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Tool configuration files export their config by default, as the tools require.
    files: ['eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        fetch: 'readonly',
      },
    },
  },
  {
    // Sizes (STYLE.md, k6's funlen): a file holds one concept, a function one step.
    files: ['cli/**/*.ts', 'dsl/**/*.ts', 'runtime/**/*.ts', 'model/**/*.ts', 'sandbox/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The named exceptions: declarative tables (the metric registry's rows, the zod schemas of an
    // endpoint and an executor, each one object literal of keys).
    files: [
      'model/metrics/metric-registry.ts',
      'dsl/schema/endpoint-schema.ts',
      'dsl/schema/scenarios-schema.ts',
    ],
    rules: { 'max-lines': 'off', 'max-lines-per-function': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // tap subtests are async functions whether or not they await.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
