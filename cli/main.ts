/**
 * Registers the commands and runs one; the exit code comes back as a number (never process.exit).
 * The parser and the command declarations are imported here, when needed: `--version` alone is
 * answered without them (clipanion builds a state machine of every command's options, which is
 * most of what that command would cost). Each command imports its own machinery when it runs.
 */
import type { BarrageContext } from './context.js';
import { ExitCode } from './exit-code.js';
import { VERSION } from './version.js';

/** Runs barrage with these arguments; returns the exit code. */
export async function main(argv: readonly string[], context: BarrageContext): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    context.stdout.write(`${VERSION}\n`);
    return ExitCode.Ok;
  }
  const [{ Builtins, Cli }, commands] = await Promise.all([
    import('clipanion'),
    Promise.all([
      import('./commands/run.js').then((m) => m.RunCommand),
      import('./commands/validate.js').then((m) => m.ValidateCommand),
      import('./commands/har.js').then((m) => m.HarCommand),
      import('./commands/serve.js').then((m) => m.ServeCommand),
      import('./commands/demo.js').then((m) => m.DemoCommand),
      import('./commands/merge.js').then((m) => m.MergeCommand),
    ]),
  ]);
  const cli = new Cli<BarrageContext>({
    binaryLabel: 'barrage: load testing for HTTP and WebSocket services',
    binaryName: 'barrage',
    binaryVersion: VERSION,
    enableCapture: false,
    enableColors: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const command of commands) cli.register(command);
  let command;
  try {
    command = cli.process([...argv], context);
  } catch (error) {
    // clipanion would print usage errors on stdout; they belong on stderr, with exit code 1.
    // A misspelt or valueless flag gets barrage's own words (loaded only now, off the normal path).
    const { explainSyntaxError } = await import('./syntax-error.js');
    const defaultPath = commands.find((c) => c.paths?.some((p) => p.length === 0))?.paths?.[0];
    const explained = explainSyntaxError(error, argv, cli.definitions(), defaultPath ?? []);
    context.stderr.write(explained ?? cli.error(error, { colored: false }));
    return ExitCode.Failed;
  }
  return cli.run(command, context);
}
