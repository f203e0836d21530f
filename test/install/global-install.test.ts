/**
 * As a user installs barrage, and as the image does (the Dockerfile at the root): `npm pack`
 * into a folder, then the Dockerfile's own install step (its RUN, read by helpers/dockerfile.ts)
 * run by sh as Docker runs it, its `$PACK` that folder and its `--global` prefix a fresh one
 * (npm_config_prefix), with the Node running this test first on PATH (npm's install scripts then
 * run on it). Then the installed `barrage --help`, `barrage demo`, a TypeScript scenario validated
 * (isolated-vm loads), on this Node and on each Node whose bin folder BARRAGE_OTHER_NODES lists
 * (colon separated): the installed package carries both isolated-vm releases, and each Node must
 * find one it can load; and on this Node (the image's, 24 in .ci/run) `barrage run` of a YAML
 * configuration and of a TypeScript scenario, type-checked, against a local counting server. It
 * fetches the dependencies from the npm registry, so it is not part of `npm test` (.taprc excludes
 * test/install/); .ci/run runs it once, on Node 24. Needs dist/ built.
 */
import t from 'tap';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installStep, ROOT } from '../helpers/dockerfile.js';
import { runInstalled } from '../helpers/installed-runs.js';
const nodeDir = dirname(dirname(process.execPath));
const env: NodeJS.ProcessEnv = {
  // The machine's own settings (proxy, certificates) reach npm; this Node comes first on PATH.
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  // Headers of this Node, when it has them: a build npm attempts then needs no download.
  ...(existsSync(join(nodeDir, 'include', 'node', 'node.h'))
    ? { npm_config_nodedir: nodeDir }
    : {}),
};
// A prefix outside the checkout: no node_modules/.bin above it puts another node on PATH.
const work = mkdtempSync(join(tmpdir(), 'barrage-install-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));

function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync(command, args, {
    env,
    encoding: 'utf8',
    timeout: 300_000,
    ...options,
  });
  return { code: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const abi = Number(process.versions.modules);
// Installing fetches from the registry: more than the 120 s .taprc allows one file.
t.setTimeout(600_000);
const prefix = join(work, 'prefix');
// The package is barrage-cli (`barrage` on npm is someone else's); the command it installs is barrage.
const installed = join(prefix, 'lib', 'node_modules', 'barrage-cli');
const barrage = join(prefix, 'bin', 'barrage');

t.test(
  `the image's install of the packed tarball on Node ${process.version} (ABI ${abi})`,
  async (t) => {
    // The Dockerfile's first stage ends with npm pack into /pack, which its image copies to $PACK.
    const pack = join(work, 'pack');
    mkdirSync(pack);
    const packed = run('npm', ['pack', '--pack-destination', pack], { cwd: ROOT });
    t.equal(packed.code, 0, 'npm pack', { stderr: packed.stderr });
    const started = Date.now();
    const install = run('sh', ['-c', installStep()], {
      cwd: work,
      env: { ...env, PACK: pack, npm_config_prefix: prefix },
    });
    t.comment(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    t.equal(install.code, 0, "the Dockerfile's npm install --global", { stderr: install.stderr });
    t.notOk(existsSync(pack), 'the tarball and the npm cache removed');
    const log = install.stdout + install.stderr;
    t.ok(existsSync(join(installed, 'LICENSE')), 'the LICENSE is installed');
    t.ok(existsSync(join(installed, 'barrage.schema.json')), 'the schema path the README names');
    const modules = readdirSync(join(installed, 'node_modules'));
    if (abi === 147) {
      // isolated-vm 6.2.0 says engines >=22, so npm tries it on 26 too, fails to build it and
      // drops it, as an optional dependency (docs/install.md); 7.0.1 is used.
      t.ok(modules.includes('isolated-vm-7'), 'isolated-vm 7.0.1 installed');
      t.notOk(modules.includes('isolated-vm-6'), 'isolated-vm 6.2.0 dropped');
    } else {
      t.notMatch(log, /gyp info/, 'no native build');
      t.ok(modules.includes('isolated-vm-6'), 'isolated-vm 6.2.0 installed');
      t.equal(modules.includes('isolated-vm-7'), abi >= 137, 'isolated-vm 7.0.1 only from Node 24');
    }
  },
);

/** The bin folders of the Nodes the installed barrage is run on: this one first. */
const nodes = [
  dirname(process.execPath),
  ...(process.env.BARRAGE_OTHER_NODES ?? '').split(':').filter((dir) => dir !== ''),
];

for (const bin of nodes) {
  const version = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  // The bin's shebang (`#!/usr/bin/env node`) runs the first node on PATH.
  const onNode = { env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` } };
  t.test(`the installed barrage runs on Node ${version}: --help, demo, a scenario`, async (t) => {
    const help = run(barrage, ['--help'], onNode);
    t.equal(help.code, 0, 'barrage --help', { stderr: help.stderr });
    t.match(help.stdout, /barrage demo/);
    const version = run(barrage, ['--version'], onNode);
    t.match(version.stdout, /^\d+\.\d+\.\d+\n$/, 'barrage --version finds its package.json');
    const demo = run(barrage, ['demo', '--duration', '1s', '--json-output'], onNode);
    t.notMatch(demo.stderr, /internal error/, 'barrage demo');
    const result = JSON.parse(demo.stdout) as { total: number; failures: number };
    t.ok(result.total > 0, 'the demo sent requests');
    t.equal(result.failures, 0);
    const scenario = join(installed, 'scenarios', 'checkout.ts');
    const validate = run(
      barrage,
      ['validate', '--scenario', scenario, '--target', 'http://127.0.0.1:9'],
      onNode,
    );
    t.equal(validate.code, 0, 'barrage validate --scenario', { stderr: validate.stderr });
    t.match(validate.stdout, /Configuration is valid/);
  });
}

t.test(`the installed barrage runs a YAML configuration and a TypeScript scenario`, async (t) => {
  await runInstalled(t, barrage, env);
});
