import t from 'tap';
import { runCli } from '../helpers/run-cli.js';

/** argv, the first line of stderr, and the usage line after it. */
const CASES: readonly (readonly [readonly string[], string, string])[] = [
  [
    ['run', '--concurency', '5'],
    'barrage: unknown flag --concurency for "barrage run"; did you mean --concurrency?',
    'usage: barrage run [options] [CONFIG]',
  ],
  [
    ['--concurency', '5'],
    'barrage: unknown flag --concurency for "barrage run"; did you mean --concurrency?',
    'usage: barrage run [options] [CONFIG]',
  ],
  [
    ['validate', 'x.yaml', '--tresholds', 'x'],
    'barrage: unknown flag --tresholds for "barrage validate"; did you mean --threshold?',
    'usage: barrage validate [options] [CONFIG]',
  ],
  [
    ['merge', 'a.json', '--jsn', 'out.json'],
    'barrage: unknown flag --jsn for "barrage merge"; did you mean --json?',
    'usage: barrage merge [options] <RESULT> ...',
  ],
  [
    ['har', 'x.har', '--as-flwo'],
    'barrage: unknown flag --as-flwo for "barrage har"; did you mean --as-flow?',
    'usage: barrage har [options] <FILE>',
  ],
  [
    ['serve', '--prot', '8080'],
    'barrage: unknown flag --prot for "barrage serve"; did you mean --port?',
    'usage: barrage serve [options]',
  ],
  [
    ['demo', '--durtion', '1s'],
    'barrage: unknown flag --durtion for "barrage run"; did you mean --duration?',
    'usage: barrage run [options] [CONFIG]',
  ],
  [
    ['run', '--target'],
    'barrage: flag --target for "barrage run": expected a value, got none',
    'usage: barrage run [options] [CONFIG]',
  ],
  [
    ['run', '-d', '--quiet'],
    'barrage: flag -d for "barrage run": expected a value, got none',
    'usage: barrage run [options] [CONFIG]',
  ],
  [
    ['serve', '--port'],
    'barrage: flag --port for "barrage serve": expected a value, got none',
    'usage: barrage serve [options]',
  ],
  [
    ['run', '--xyz'],
    'barrage: unknown flag --xyz for "barrage run"',
    'usage: barrage run [options] [CONFIG]',
  ],
];

t.test('a misspelt or valueless flag: did you mean, the short usage, exit 1', async (t) => {
  const results = await Promise.all(CASES.map(([argv]) => runCli(argv)));
  results.forEach((result, i) => {
    const [argv, first, usage] = CASES[i]!;
    const name = argv.join(' ');
    t.equal(result.code, 1, `${name}: exit code`);
    t.equal(result.stdout, '', `${name}: stdout stays empty`);
    const lines = result.stderr.split('\n');
    t.equal(lines[0], first, `${name}: the problem`);
    t.match(lines[1], usage, `${name}: the command's short usage`);
    t.ok(result.stderr.length < 300, `${name}: no list of every option (${result.stderr.length})`);
    t.notMatch(result.stderr, /\n\s+at |Unknown Syntax Error/, `${name}: no stack, no raw error`);
  });
});
