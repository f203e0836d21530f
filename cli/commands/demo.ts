/**
 * `barrage demo`: starts the embedded target on a free port and runs scenarios/demo.yaml against
 * it, dashboard on when there is a terminal: a real load test on a fresh machine, no setup.
 */
import { Command, Option } from 'clipanion';
import { join } from 'node:path';
import { ExitCode } from '../exit-code.js';
import { PACKAGE_ROOT } from '../version.js';
import { BaseCommand } from './base-command.js';

/** The showcase run. */
export class DemoCommand extends BaseCommand {
  static override paths = [['demo']];

  static override usage = Command.Usage({
    description: 'Run a showcase load test against the embedded target',
    details: `
      Starts the embedded target server on a free local port and runs scenarios/demo.yaml against
      it: a login once per worker, weighted endpoints with a bearer token, a fixed rate, and
      thresholds. Extra arguments are passed to \`run\` (e.g. --duration 5s or --json-output).
    `,
    examples: [
      ['The demo', '$0 demo'],
      ['A shorter demo', '$0 demo --duration 3s'],
    ],
  });

  rest = Option.Proxy();

  /** Serves, runs, stops. */
  async run(): Promise<number> {
    // The proxy takes every argument, --help too: the demo's own help, not run's parse error.
    if (this.rest.length === 1 && (this.rest[0] === '--help' || this.rest[0] === '-h')) {
      this.context.stdout.write(this.cli.usage(DemoCommand, { detailed: true }));
      return ExitCode.Ok;
    }
    const scenario = join(PACKAGE_ROOT, 'scenarios', 'demo.yaml');
    // The extra arguments are run's: a misspelt flag is reported before the server starts.
    const argv = ['run', scenario, '--target', 'http://127.0.0.1', ...this.rest];
    try {
      this.cli.process(argv);
    } catch (error) {
      const { explainSyntaxError } = await import('../syntax-error.js');
      const explained = explainSyntaxError(error, argv, this.cli.definitions(), ['run']);
      this.context.stderr.write(explained ?? `barrage: ${String(error)}\n`);
      return ExitCode.Failed;
    }
    const { startTargetServer } = await import('../serve/target-server.js');
    const server = await startTargetServer({ port: 0 });
    try {
      this.context.stderr.write(
        `barrage demo: target server on ${server.url}, running ${scenario}\n`,
      );
      return await this.cli.run(['run', scenario, '--target', server.url, ...this.rest]);
    } finally {
      await server.close();
    }
  }
}
