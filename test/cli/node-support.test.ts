import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { OLDEST_NODE, refuseNode } from '../../cli/node-support.js';
import { BIN } from '../helpers/run-cli.js';

t.test(
  'Node 22.19 and newer run; older ones get one line naming the Node and the way out',
  async (t) => {
    for (const version of ['v22.19.0', 'v22.23.3', 'v24.21.0', 'v26.10.0', 'v27.0.0'])
      t.equal(refuseNode(version), undefined, version);
    for (const version of ['v20.20.2', 'v22.18.0', 'v18.20.8', 'v21.7.3']) {
      const line = refuseNode(version);
      t.match(line, new RegExp(`this is Node\\.js ${version.replace(/\./g, '\\.')};`), version);
      t.match(line, /needs Node\.js 22\.19 or newer \(22, 24 or 26\)/);
      t.match(line, /https:\/\/nodejs\.org/);
      t.notMatch(line, /\n/, 'one line');
    }
  },
);

t.test('package.json engines says the same floor', async (t) => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  };
  t.equal(pkg.engines.node, `>=${OLDEST_NODE.major}.${OLDEST_NODE.minor}`);
});

// .ci/run sets BARRAGE_OLD_NODE to a Node older than the floor when the machine has one.
const oldNode = process.env.BARRAGE_OLD_NODE;
t.test(
  'an old Node running the bin gets the refusal, exit 1, and no stack trace',
  { skip: oldNode === undefined ? 'BARRAGE_OLD_NODE is not set' : false },
  async (t) => {
    const result = spawnSync(oldNode!, [BIN, 'run', '--target', 'http://127.0.0.1:9'], {
      encoding: 'utf8',
    });
    t.equal(result.status, 1);
    t.equal(result.stdout, '');
    const lines = result.stderr.trimEnd().split('\n');
    t.equal(lines.length, 1, result.stderr);
    t.match(lines[0], /^barrage: this is Node\.js v\d+\.\d+\.\d+; barrage needs Node\.js 22\.19/);
  },
);
