import t from 'tap';
import { chooseLiveMode, type LiveModeInputs } from '../../cli/dashboard/live-view.js';

const TERMINAL: LiveModeInputs = {
  isTTY: true,
  env: { TERM: 'xterm-256color' },
  dashboard: true,
  jsonOutput: false,
  quiet: false,
};

t.test('dashboard on a terminal; progress lines otherwise; nothing with --quiet', async (t) => {
  const rows: [string, Partial<LiveModeInputs>, string][] = [
    ['a terminal', {}, 'dashboard'],
    ['stdout a pipe', { isTTY: false }, 'progress'],
    ['CI=true', { env: { CI: 'true' } }, 'progress'],
    ['CI=1', { env: { CI: '1' } }, 'progress'],
    ['CI=false', { env: { CI: 'false' } }, 'dashboard'],
    ['CI=0', { env: { CI: '0' } }, 'dashboard'],
    ['CI empty', { env: { CI: '' } }, 'dashboard'],
    ['TERM=dumb', { env: { TERM: 'dumb' } }, 'progress'],
    ['--no-dashboard', { dashboard: false }, 'progress'],
    ['--json-output', { jsonOutput: true }, 'progress'],
    ['--quiet', { quiet: true }, 'off'],
    ['--quiet without a terminal', { quiet: true, isTTY: false }, 'off'],
  ];
  for (const [name, change, expected] of rows)
    t.equal(chooseLiveMode({ ...TERMINAL, ...change }), expected, name);
});
