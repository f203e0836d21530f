/**
 * The image definition (Dockerfile, .dockerignore at the root; docs/install.md, "The Docker
 * image") read as Docker reads it, without Docker: a supported slim Node, barrage installed from
 * its own packed tarball with production dependencies only (isolated-vm included, as the
 * package's optional dependencies), a non-root user, barrage as the entrypoint; a build context
 * without node_modules or outputs, yet with every input of the build. test/install/
 * global-install.test.ts replays the install step and runs what it installed.
 */
import t from 'tap';
import { Copy } from 'dockerfile-ast';
import { readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { refuseNode } from '../../cli/node-support.js';
import {
  argDefault,
  argumentsOf,
  finalStage,
  installStep,
  readStages,
  ROOT,
} from '../helpers/dockerfile.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  files: string[];
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

t.test("every stage is a slim Debian Node, the major the project's own tests run on", async (t) => {
  const stages = readStages();
  t.equal(stages.length, 2, 'a stage that packs, the image that installs');
  const ownMajor = pkg.devDependencies.node!.split('.')[0];
  for (const { image } of stages) {
    const [, major] = /^node:(\d+)-bookworm-slim$/.exec(image) ?? [];
    t.equal(major, ownMajor, image);
    t.equal(refuseNode(`v${major}.0.0`), undefined, 'a Node barrage supports');
  }
});

t.test('the first stage builds and packs the package as npm publishes it', async (t) => {
  const [pack] = readStages();
  const runs = argumentsOf(pack!, 'RUN');
  t.match(runs[0], /^npm ci\b/, 'the lockfile installed');
  t.match(runs[1], /^npm run build && npm pack --pack-destination \/pack$/);
  const copy = finalStage().instructions.find((i): i is Copy => i instanceof Copy);
  t.equal(copy?.getFromFlag()?.getValue(), pack!.name, 'from the first stage');
  t.equal(copy?.getArgumentsContent(), '/pack/ ${PACK}/', 'the tarball, and only it');
  t.equal(pack!.name, 'pack');
});

t.test('the image installs the tarball globally with production dependencies only', async (t) => {
  const step = installStep();
  t.match(step, /^npm install --global --omit=dev /);
  t.match(step, `"$PACK"/${pkg.name}-*.tgz`, "the package's own tarball");
  t.match(step, /--cache "\$PACK\/npm-cache"/, "npm's cache beside the tarball");
  t.match(step, /&& rm -rf "\$PACK"$/, 'both gone from the image');
  t.match(argDefault('PACK'), /^\/tmp\//);
  // npm i -g of a tarball installs its optional dependencies (never its devDependencies): the
  // isolated-vm releases TypeScript scenarios need must be optional ones.
  for (const release of ['isolated-vm-6', 'isolated-vm-7'])
    t.match(pkg.optionalDependencies[release], /^npm:isolated-vm@/, release);
});

t.test('it runs barrage as a non-root user in /work', async (t) => {
  const image = finalStage();
  const [user] = argumentsOf(image, 'USER');
  t.equal(user, 'node', "the base image's unprivileged user");
  t.equal(argumentsOf(image, 'WORKDIR').at(-1), '/work');
  t.ok(
    argumentsOf(image, 'RUN').includes('install -d -o node -g node /work'),
    'a folder the user may write reports to',
  );
  const entrypoint = image.instructions.find((i) => i.getKeyword() === 'ENTRYPOINT');
  t.equal(entrypoint?.getArgumentsContent(), '["barrage"]', 'the exec form: signals reach it');
  t.same(Object.keys(pkg.bin), ['barrage'], 'the command the package installs');
});

t.test(
  ".dockerignore keeps installed modules and outputs out, and the build's inputs in",
  async (t) => {
    const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    const ignored = (path: string): boolean => patterns.some((p) => matchesGlob(path, p));
    for (const path of ['node_modules', 'dist', '.git', 'test', 'barrage-cli-0.1.0.tgz'])
      t.ok(ignored(path), `${path} ignored`);
    // What npm run build bundles (docs/architecture.md's rooms) and npm pack packs besides dist/.
    const rooms = ['cli', 'dsl', 'model', 'runtime', 'sandbox', 'native', 'scripts'];
    const packed = ['package.json', 'README.md', ...pkg.files.filter((f) => f !== 'dist')];
    const inputs = ['package-lock.json', ...rooms, ...packed];
    for (const path of inputs) t.notOk(ignored(path), `${path} in the build's context`);
  },
);
