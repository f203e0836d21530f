/**
 * The package as npm packs it, without installing (test/install/ installs it from the registry):
 * the name is barrage-cli (`barrage` on npm is an unrelated library), the command barrage; the
 * tarball holds the LICENSE the `license` field names, the schema the README points editors to,
 * and the built bin; the README's install line, schema path and modeline name the package.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  name: string;
  license: string;
  bin: Record<string, string>;
  repository?: { url?: string };
  homepage?: string;
  bugs?: { url?: string };
};

t.test('the name is ours, the command is barrage, the fields a registry page shows', async (t) => {
  t.equal(pkg.name, 'barrage-cli');
  t.same(Object.keys(pkg.bin), ['barrage']);
  t.equal(pkg.license, 'MIT');
  t.match(pkg.repository?.url, /^git\+https:\/\/github\.com\//);
  t.match(pkg.homepage, /^https:\/\//);
  t.match(pkg.bugs?.url, /^https:\/\/.*\/issues$/);
  t.match(readFileSync(`${ROOT}LICENSE`, 'utf8'), /^MIT License\n/);
});

t.test('npm pack holds the LICENSE, the schema and the bin', async (t) => {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(pack.status, 0, 'npm pack --dry-run', { stderr: pack.stderr });
  const [packed] = JSON.parse(pack.stdout) as { name: string; files: { path: string }[] }[];
  t.equal(packed?.name, 'barrage-cli');
  const files = new Set(packed?.files.map((f) => f.path));
  for (const file of ['LICENSE', 'barrage.schema.json', 'package.json', 'README.md', 'dist/bin.js'])
    t.ok(files.has(file), `${file} is packed`);
});

t.test('the README installs this package and points editors at its schema', async (t) => {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  t.match(readme, /npm i -g barrage-cli\b/);
  t.notMatch(readme, /npm i(nstall)? -g barrage(?!-cli)\b/, 'no install of the other package');
  t.match(
    readme,
    /# yaml-language-server: \$schema=\.\/node_modules\/barrage-cli\/barrage\.schema\.json/,
  );
  t.notMatch(readme, /node_modules\/barrage\//);
});
