/**
 * Inputs that once exhausted the machine (issue 30): 100,000 endpoints, a FIFO or a device as
 * feeder or configuration. Each is refused at once through the built CLI, exit 1, no stack trace,
 * nothing sent to the target.
 */
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startTargetServer } from '../../cli/serve/target-server.js';
import { MAX_ENDPOINTS } from '../../dsl/schema/config-schema.js';
import { runCli, type SpawnResult } from '../helpers/run-cli.js';

/** A YAML configuration with `count` endpoints. */
function endpoints(target: string, count: number): string {
  const lines = [`target: ${target}`, 'requests: 1', 'endpoints:'];
  for (let i = 0; i < count; i++) lines.push(`  - { name: e${i}, url: /json }`);
  return `${lines.join('\n')}\n`;
}

function refused(t: Test, result: SpawnResult, pattern: RegExp, what: string): void {
  t.equal(result.code, 1, `${what}: exit 1`);
  t.match(result.stderr, pattern, `${what}: says why`);
  t.notMatch(result.stderr, /^\s+at /m, `${what}: no stack trace`);
  t.notMatch(result.stderr, /internal error/, `${what}: not a crash`);
}

t.test(
  '100,000 endpoints are refused by name, count and cap; the cap itself validates',
  async (t) => {
    const server = await startTargetServer();
    t.teardown(() => server.close());
    const dir = t.testdir({
      'huge.yaml': endpoints(server.url, 100_000),
      'cap.yaml': endpoints(server.url, MAX_ENDPOINTS),
    });
    const huge = await runCli(['validate', 'huge.yaml'], { cwd: dir });
    refused(
      t,
      huge,
      new RegExp(
        `huge\\.yaml:\\d+:\\d+: endpoints: expected at most ${MAX_ENDPOINTS} endpoints, got a list of 100000`,
      ),
      'validate',
    );
    const run = await runCli(['run', 'huge.yaml'], { cwd: dir });
    refused(t, run, /at most 500 endpoints/, 'run');
    const cap = await runCli(['validate', 'cap.yaml'], { cwd: dir });
    t.equal(cap.code, 0, cap.stderr);
    t.equal(server.stats().total, 0, 'nothing was sent');
  },
);

t.test('a FIFO, /dev/zero or a directory as feeder is refused before it is opened', async (t) => {
  const server = await startTargetServer();
  t.teardown(() => server.close());
  const dir = t.testdir({ data: {} });
  execFileSync('mkfifo', [join(dir, 'users.csv')]);
  const cases: [string, string, RegExp][] = [
    ['fifo.yaml', 'users.csv', /expected a regular feeder file, got a FIFO \(named pipe\)/],
    ['zero.yaml', '/dev/zero', /expected a regular feeder file, got a character device/],
    ['dir.yaml', 'data', /expected a regular feeder file, got a directory/],
  ];
  for (const [name, file, pattern] of cases) {
    const config = `target: ${server.url}\nrequests: 5\nfeeder: { file: ${file}, format: csv }\nendpoints: [{ url: /json }]\n`;
    execFileSync('sh', ['-c', `cat > ${join(dir, name)}`], { input: config });
    for (const command of ['validate', 'run']) {
      const result = await runCli([command, name], { cwd: dir, killAfterMs: 30_000 });
      t.equal(result.signal, null, `${name} ${command}: ended by itself`);
      refused(
        t,
        result,
        new RegExp(`${name.replace('.', '\\.')}:\\d+:\\d+: feeder\\.file: ${pattern.source}`),
        `${name} ${command}`,
      );
    }
  }
  t.equal(server.stats().total, 0, 'nothing was sent');
});

t.test('a FIFO as configuration file is refused at once', async (t) => {
  const dir = t.testdir({});
  execFileSync('mkfifo', [join(dir, 'load.yaml')]);
  for (const command of ['validate', 'run']) {
    const result = await runCli([command, 'load.yaml'], { cwd: dir, killAfterMs: 30_000 });
    t.equal(result.signal, null, `${command}: ended by itself`);
    refused(t, result, /load\.yaml: expected a regular configuration file, got a FIFO/, command);
  }
});
