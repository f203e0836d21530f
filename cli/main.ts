/** Registers the commands and runs one; the exit code comes back as a number (never process.exit). */
import { Builtins, Cli } from 'clipanion';
import { DemoCommand } from './commands/demo.js';
import { HarCommand } from './commands/har.js';
import { MergeCommand } from './commands/merge.js';
import { RunCommand } from './commands/run.js';
import { ServeCommand } from './commands/serve.js';
import { ValidateCommand } from './commands/validate.js';
import type { BarrageContext } from './context.js';
import { ExitCode } from './exit-code.js';
import { VERSION } from './version.js';

/** Runs barrage with these arguments; returns the exit code. */
export async function main(argv: readonly string[], context: BarrageContext): Promise<number> {
  const cli = new Cli<BarrageContext>({
    binaryLabel: 'barrage: load testing for HTTP and WebSocket services',
    binaryName: 'barrage',
    binaryVersion: VERSION,
    enableCapture: false,
    enableColors: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  cli.register(RunCommand);
  cli.register(ValidateCommand);
  cli.register(HarCommand);
  cli.register(ServeCommand);
  cli.register(DemoCommand);
  cli.register(MergeCommand);
  let command;
  try {
    command = cli.process([...argv], context);
  } catch (error) {
    // clipanion would print usage errors on stdout; they belong on stderr, with exit code 1.
    context.stderr.write(cli.error(error, { colored: false }));
    return ExitCode.Failed;
  }
  return cli.run(command, context);
}
