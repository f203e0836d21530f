/** `barrage serve`: the embedded target server, for trying barrage and for its own tests. */
import { Command, Option } from 'clipanion';
import { ConfigError } from '../../dsl/issues.js';
import { ExitCode } from '../exit-code.js';
import { BaseCommand } from './base-command.js';

/** Serves the target until Ctrl+C. */
export class ServeCommand extends BaseCommand {
  static override paths = [['serve']];

  static override usage = Command.Usage({
    description: 'Start the embedded target server',
    details: `
      Serves a small target on 127.0.0.1 for trying barrage: /, /json, /delay/:ms, /status/:code,
      /login (POST, returns a token), /me (needs it), /oauth/token (client credentials:
      barrage-demo / demo-secret), /flaky (every 5th request is a 503), /echo, /drip, /bytes/:n,
      /ws/echo (WebSocket: echoes text and binary frames, ?delay=ms before each reply),
      /ws/chat?room=&token=t-<user> (a WebSocket chat room: JSON frames, say, ping, ?delay,
      ?tick), a web app with a cookie session under /app/ (/app/login: a form with a CSRF token, users ada, grace
      and alan with the passwords of scenarios/users.csv; /app/dashboard; /app/products, gzip when
      accepted; /app/products/:id; /app/logout), and /__stats (request counts, and the web app's
      logins, dashboard views and refusals; a WebSocket session counts once, at its upgrade).
      docs/serve.md has every route. Runs until Ctrl+C.
    `,
    examples: [['On port 8080', '$0 serve --port 8080']],
  });

  port = Option.String('--port', '8080', { description: 'Port to listen on (0: any free port)' });
  host = Option.String('--host', '127.0.0.1', { description: 'Address to listen on' });

  /** Starts the server and waits for a signal. */
  async run(): Promise<number> {
    const port = Number(this.port);
    if (!/^\d+$/.test(this.port) || port > 65535) {
      throw new ConfigError([
        {
          code: 'invalid_value',
          source: { kind: 'flag', flag: '--port' },
          path: [],
          expected: 'a port number from 0 to 65535',
          actual: JSON.stringify(this.port),
        },
      ]);
    }
    const { startTargetServer } = await import('../serve/target-server.js');
    const server = await startTargetServer({ port, host: this.host });
    this.context.stdout.write(
      `barrage target server listening on ${server.url} (Ctrl+C to stop)\n`,
    );
    await new Promise<void>((resolve) => {
      const unsubscribe = this.context.onSignal(() => {
        unsubscribe();
        resolve();
      });
    });
    await server.close();
    return ExitCode.Ok;
  }
}
