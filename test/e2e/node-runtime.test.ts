import t from 'tap';
import { spawnSync } from 'node:child_process';
import { refuseNode } from '../../cli/node-support.js';

// .ci/run runs the suite once per Node and says which in BARRAGE_TEST_NODE (e.g. "v22.23.3").
t.test('the suite, and the bin it spawns through PATH, run on the Node CI meant', async (t) => {
  t.comment(`node ${process.version}, ABI ${process.versions.modules}`);
  t.equal(refuseNode(process.version), undefined, 'a supported Node');
  const expected = process.env.BARRAGE_TEST_NODE;
  if (expected !== undefined) t.equal(process.version, expected, 'the test process');
  // The bin's shebang is `#!/usr/bin/env node`: the first node on PATH runs it.
  const spawned = spawnSync('node', ['-p', 'process.version'], {
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
  });
  t.equal(spawned.stdout.trim(), process.version, 'the node on PATH');
});
