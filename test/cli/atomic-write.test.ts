import t from 'tap';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { appendFileAtomic, writeFileAtomic } from '../../cli/atomic-write.js';

t.test('a file is replaced whole, and nothing else is left in its folder', async (t) => {
  const dir = t.testdir({ 'report.json': 'old' });
  writeFileAtomic(join(dir, 'report.json'), '{"new":true}\n');
  t.equal(readFileSync(join(dir, 'report.json'), 'utf8'), '{"new":true}\n');
  t.same(readdirSync(dir), ['report.json']);
});

t.test('a failed write throws, removes its temporary file, leaves the target', async (t) => {
  const dir = t.testdir({});
  // A directory in the way: the rename fails once the text is written.
  mkdirSync(join(dir, 'report.html'));
  t.throws(() => writeFileAtomic(join(dir, 'report.html'), '<html></html>'), { code: 'EISDIR' });
  t.same(readdirSync(dir), ['report.html'], 'no temporary file is left');
  t.throws(() => writeFileAtomic(join(dir, 'missing', 'x.json'), '{}'), { code: 'ENOENT' });
});

t.test('append keeps the old content and adds the new', async (t) => {
  const dir = t.testdir({});
  const path = join(dir, 'summary.md');
  appendFileAtomic(path, 'one\n');
  writeFileSync(path, 'one\n');
  appendFileAtomic(path, 'two\n');
  t.equal(readFileSync(path, 'utf8'), 'one\ntwo\n');
  t.same(readdirSync(dir), ['summary.md']);
});

t.test(
  'a symbolic link is followed: the file it points to is replaced, the link stays',
  async (t) => {
    const dir = t.testdir({ real: { 'report.json': 'old' } });
    symlinkSync(join(dir, 'real', 'report.json'), join(dir, 'link.json'));
    writeFileAtomic(join(dir, 'link.json'), 'new');
    t.ok(lstatSync(join(dir, 'link.json')).isSymbolicLink());
    t.equal(readFileSync(join(dir, 'real', 'report.json'), 'utf8'), 'new');
    t.same(readdirSync(join(dir, 'real')), ['report.json']);
  },
);
