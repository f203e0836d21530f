// A Socket.IO session lives as long as its steps say: a ten-second listen on a server that pings
// every second and drops a client whose pong is a second late. socket.io-client answers the
// pings (the server counts the pongs), so the server never drops the session for a ping timeout
// and the session ends by its own disconnect after its last step.
import t from 'tap';
import { eventually } from '../helpers/eventually.js';
import { CHAT_TOKEN, startSocketioApp } from '../helpers/socketio-app.js';
import { runInThread as run } from '../helpers/segment-run.js';

t.test('a 10 s session with a 1 s ping interval keeps its heartbeats', async (t) => {
  const app = await startSocketioApp(t);
  const result = await run({
    concurrency: 1,
    requests: 1,
    endpoints: [
      {
        url: app.url,
        socketio: {
          namespace: '/chat',
          auth: { token: CHAT_TOKEN },
          session: [{ receive: { event: 'welcome' } }, { listen: '10s' }],
        },
      },
    ],
  });
  t.equal(result.failures, 0, JSON.stringify(result.errors));
  await eventually(() => Object.keys(app.log.disconnects).length > 0, 5000);
  t.same(app.log.disconnects, { 'client namespace disconnect': 1 }, 'no ping timeout');
  t.ok(app.log.heartbeats > 0, `the client answered ${app.log.heartbeats} pings`);
  const duration = (result as unknown as { socketio: { session_duration_ms: { min: number } } })
    .socketio.session_duration_ms.min;
  t.ok(duration >= 10_000 * 0.999, `the session lasted its listen (${duration} ms)`);
});
