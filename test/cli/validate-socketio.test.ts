// `barrage validate` on Socket.IO endpoints (in process): each bad key is an error naming
// file:line and the key, exit 1, nothing sent, no stack trace; a good session is listed with its
// namespace and its steps counted by kind.
import t from 'tap';
import { runInProcess } from '../helpers/in-process-cli.js';
import { testRefusals, type Refusal } from '../helpers/validate-refusals.js';

const BASE =
  'target: http://127.0.0.1:9\nrequests: 1\nendpoints:\n  - url: /\n    socketio:\n      namespace: /chat\n';

/** Each bad configuration (its lines from line 7 of the file) and its error line. */
const BAD: readonly Refusal[] = [
  [
    'an unknown key in socketio',
    '      transport: [websocket]\n      session: [{ pause: 1s }]',
    /load\.yaml:7:\d+: endpoints\[0\]\.socketio\.transport: expected one of namespace, path, transports, auth, query, session, got unknown key "transport" \(did you mean transports\?\)/,
  ],
  [
    'an unknown transport',
    '      transports: [webtransport]\n      session: [{ pause: 1s }]',
    /load\.yaml:7:\d+: endpoints\[0\]\.socketio\.transports\[0\]: expected websocket or polling, got "webtransport"/,
  ],
  [
    'a timeout on an emit that awaits no ack',
    '      session:\n        - emit: { event: say }\n          timeout: 1s',
    /load\.yaml:9:\d+: endpoints\[0\]\.socketio\.session\[0\]\.timeout: expected timeout beside ack/,
  ],
  [
    'a reserved event name',
    '      session:\n        - receive: { event: connect }',
    /load\.yaml:8:\d+: endpoints\[0\]\.socketio\.session\[0\]\.receive\.event: expected an event name other than connect/,
  ],
  [
    'a namespace without its slash',
    '      session: [{ pause: 1s }]\n    headers: {}\n  - url: /b\n    socketio: { namespace: chat, session: [{ pause: 1s }] }',
    /endpoints\[1\]\.socketio\.namespace: expected a namespace starting with "\/", such as \/chat, got "chat"/,
  ],
  [
    'a body beside socketio',
    '      session: [{ pause: 1s }]\n    body: { a: 1 }',
    /load\.yaml:8:\d+: endpoints\[0\]\.body: expected socketio without body/,
  ],
];

testRefusals(BASE, BAD);

t.test('a good Socket.IO endpoint is listed with its steps by kind', async (t) => {
  const dir = t.testdir({
    'load.yaml': `${BASE}      auth: { token: '{{$uuid}}' }\n      session:\n        - receive: { event: welcome }\n        - emit: { event: say, data: { text: hi } }\n          ack: { json: $.ok, equals: true }\n        - emit: { event: bye }\n        - listen: 2s\n`,
  });
  const result = await runInProcess(['validate', 'load.yaml'], { cwd: dir });
  t.equal(result.code, 0, result.stderr);
  t.match(
    result.stdout,
    /SOCKET\.IO http:\/\/127\.0\.0\.1:9\/chat \(1 receive, 2 emits, 1 listen\)/,
  );
});
