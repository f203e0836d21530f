// `barrage validate` (the built binary, spawned) on WebSocket session steps: each bad step is an
// error naming file:line and the key, exit 1, nothing sent, no stack trace; a good session is
// listed with its steps counted by kind.
import t from 'tap';
import { runCli } from '../helpers/run-cli.js';
import { testRefusals, type Refusal } from '../helpers/validate-refusals.js';

const BASE =
  'target: http://127.0.0.1:9\nrequests: 1\nendpoints:\n  - url: ws://127.0.0.1:9/chat\n    session:\n';

/** Each bad session (its steps from line 6 of the file) and its error line. */
const BAD: readonly Refusal[] = [
  [
    'invalid JSONPath in a reply',
    "      - send: hi\n        reply: { json: '$.[' }",
    /load\.yaml:7:\d+: endpoints\[0\]\.session\[0\]\.reply\.json: expected a JSONPath .*, got "\$\.\[": invalid JSONPath/,
  ],
  [
    'invalid regex in a receive',
    "      - receive: { regex: '(' }",
    /load\.yaml:6:\d+: endpoints\[0\]\.session\[0\]\.receive\.regex: expected a regular expression .*Unterminated group/,
  ],
  [
    'listen without a duration',
    '      - listen:',
    /load\.yaml:6:\d+: endpoints\[0\]\.session\[0\]\.listen: expected a duration such as 250ms, 30s, 1m30s or 2h \(how long the session listens\), got null/,
  ],
  [
    'binary that is not base64',
    "      - send: { binary: 'base64:AAE' }",
    /load\.yaml:6:\d+: endpoints\[0\]\.session\[0\]\.send\.binary: expected base64:<data> in standard base64.*, got "base64:AAE"/,
  ],
  [
    'two kinds in one step',
    '      - send: hi\n        receive: any',
    /load\.yaml:7:\d+: endpoints\[0\]\.session\[0\]\.receive: expected a step: one of send.*, not send and receive/,
  ],
  [
    'a timeout on a send that awaits no reply',
    '      - send: hi\n        timeout: 1s',
    /load\.yaml:7:\d+: endpoints\[0\]\.session\[0\]\.timeout: expected timeout beside reply/,
  ],
  [
    'equals beside regex',
    '      - receive: { regex: a, equals: b }',
    /load\.yaml:6:\d+: endpoints\[0\]\.session\[0\]\.receive\.equals: expected nothing beside regex/,
  ],
  [
    'a broken placeholder in equals',
    "      - receive: { json: $.a, equals: '{{x' }",
    /load\.yaml:6:\d+: endpoints\[0\]\.session\[0\]\.receive\.equals: .*"\{\{" is never closed/,
  ],
];

testRefusals(BASE, BAD);

t.test('session and messages together are refused', async (t) => {
  const dir = t.testdir({
    'load.yaml': `${BASE}      - send: hi\n    messages: [{ text: a }]\n`,
  });
  const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 1);
  t.match(
    result.stderr,
    /load\.yaml:7:\d+: endpoints\[0\]\.messages: expected session or messages, not both/,
  );
});

t.test('a good session is listed with its steps by kind', async (t) => {
  const dir = t.testdir({
    'load.yaml': `${BASE}      - receive: { json: $.type, equals: welcome }\n      - send: '{"n":1}'\n        reply: { json: $.n, equals: 1 }\n      - listen: 2s\n      - pause: 1s\n      - send: { binary: base64:AAECAw== }\n`,
  });
  const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.match(
    result.stdout,
    /WS ws:\/\/127\.0\.0\.1:9\/chat \(1 receive, 2 sends, 1 listen, 1 pause\)/,
  );
});

t.test(
  'a relative url under a ws:// target is a session: messages and session accepted',
  async (t) => {
    const dir = t.testdir({
      'load.yaml':
        'target: ws://127.0.0.1:9\nrequests: 1\nendpoints:\n' +
        '  - { name: chat, url: /chat, messages: [{ text: hi }] }\n' +
        '  - { name: feed, url: feed, session: [{ receive: any }] }\n',
    });
    const result = await runCli(['validate', 'load.yaml'], { cwd: dir });
    t.equal(result.code, 0, result.stderr);
    t.match(result.stdout, /chat +\[50\.0%\] +WS ws:\/\/127\.0\.0\.1:9\/chat \(1 send\)/);
    t.match(result.stdout, /feed +\[50\.0%\] +WS ws:\/\/127\.0\.0\.1:9\/feed \(1 receive\)/);
  },
);
