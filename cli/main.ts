/**
 * Registers the commands and runs one; the exit code comes back as a number (never process.exit).
 * The parser and the command declarations are imported here, when needed: `--version` alone is
 * answered without them, `--help` alone without building the parser (clipanion builds a state
 * machine of every registered command's options, which is most of what those would cost), and a
 * named command registers only itself, by its name alone. Each command imports its own machinery
 * when it runs.
 */
import type { Command, CommandClass } from 'clipanion';
import type { BarrageContext } from './context.js';
import { ExitCode } from './exit-code.js';
import { VERSION } from './version.js';

/** Each command's declaration, imported when needed, by its path (`run` is also the default). */
const COMMANDS = new Map<string, () => Promise<CommandClass<BarrageContext>>>([
  ['run', () => import('./commands/run.js').then((m) => m.RunCommand)],
  ['validate', () => import('./commands/validate.js').then((m) => m.ValidateCommand)],
  ['har', () => import('./commands/har.js').then((m) => m.HarCommand)],
  ['serve', () => import('./commands/serve.js').then((m) => m.ServeCommand)],
  ['demo', () => import('./commands/demo.js').then((m) => m.DemoCommand)],
  ['merge', () => import('./commands/merge.js').then((m) => m.MergeCommand)],
  ['k8s', () => import('./commands/k8s.js').then((m) => m.K8sCommand)],
  ['compare', () => import('./commands/compare.js').then((m) => m.CompareCommand)],
  ['init', () => import('./commands/init.js').then((m) => m.InitCommand)],
  ['completion', () => import('./commands/completion.js').then((m) => m.CompletionCommand)],
]);

/** The commands a command needs registered with it: `demo` runs `run`, `completion` lists all. */
const RUNS_ALSO: Readonly<Record<string, readonly string[]>> = {
  demo: ['run'],
  // The completion scripts are made from every command's declaration.
  completion: [...COMMANDS.keys()],
};

/**
 * A command as registered when the arguments name it: without the default path (`run`'s), which
 * clipanion would parse its options at too, doubling the state machine it builds before parsing
 * (about 30 → 10 ms for `run`'s options). `barrage CONFIG` still finds `run`: every command is
 * registered as declared when the first argument names none.
 */
function byNameOnly(command: CommandClass<BarrageContext>): CommandClass<BarrageContext> {
  const named: string[][] = command.paths?.filter((path) => path.length > 0) ?? [];
  if (named.length === command.paths?.length) return command;
  // The same command under its named paths (a declared command class is concrete; its type,
  // CommandClass, says only that it constructs a Command, whose execute() is abstract).
  const Declared = command as new () => Command<BarrageContext> & { execute(): Promise<number> };
  return class extends Declared {
    static paths = named;
  };
}

/** Runs barrage with these arguments; returns the exit code. */
export async function main(args: readonly string[], context: BarrageContext): Promise<number> {
  let argv = args;
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    context.stdout.write(`${VERSION}\n`);
    return ExitCode.Ok;
  }
  if (argv.length > 0 && !argv[0]!.startsWith('-') && !COMMANDS.has(argv[0]!)) {
    const [{ readFirstWord }, fs, path] = await Promise.all([
      import('./command-words.js'),
      import('node:fs'),
      import('node:path'),
    ]);
    const exists = (file: string): boolean => fs.existsSync(path.resolve(context.cwd, file));
    const read = readFirstWord(argv, [...COMMANDS.keys()], VERSION, exists);
    if (!('argv' in read)) {
      context.stdout.write(read.stdout ?? '');
      context.stderr.write(read.stderr ?? '');
      return read.exitCode;
    }
    argv = read.argv;
  }
  // A named command is parsed by its own state machine alone: clipanion builds one for every
  // registered command, and that is most of the parser's cost (every path is one word).
  const first = argv[0] ?? '';
  const wanted = COMMANDS.has(first) ? new Set([first, ...(RUNS_ALSO[first] ?? [])]) : undefined;
  const loads = [...COMMANDS]
    .filter(([name]) => wanted?.has(name) ?? true)
    .map(([, load]) => (wanted === undefined ? load() : load().then(byNameOnly)));
  const [{ Builtins, Cli }, commands] = await Promise.all([
    import('clipanion'),
    Promise.all(loads),
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
  // The list of commands needs no parser: what Builtins.HelpCommand prints, without building it.
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    context.stdout.write((await import('./command-list.js')).commandList(cli, commands));
    return ExitCode.Ok;
  }
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
