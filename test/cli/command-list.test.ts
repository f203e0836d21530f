// `barrage --help` prints the command list itself (cli/command-list.ts), sorted without ICU: the
// same text as clipanion's own usage() for barrage's commands.
import t from 'tap';
import { Builtins, Cli, type CommandClass } from 'clipanion';
import { commandList } from '../../cli/command-list.js';
import type { BarrageContext } from '../../cli/context.js';
import { CompareCommand } from '../../cli/commands/compare.js';
import { DemoCommand } from '../../cli/commands/demo.js';
import { HarCommand } from '../../cli/commands/har.js';
import { MergeCommand } from '../../cli/commands/merge.js';
import { RunCommand } from '../../cli/commands/run.js';
import { ServeCommand } from '../../cli/commands/serve.js';
import { ValidateCommand } from '../../cli/commands/validate.js';

t.test("the command list is clipanion's usage() text, byte for byte", async (t) => {
  // Registered in another order than the list's, so that the sort is what orders it.
  const commands: CommandClass<BarrageContext>[] = [
    ValidateCommand,
    RunCommand,
    DemoCommand,
    ServeCommand,
    HarCommand,
    CompareCommand,
    MergeCommand,
  ];
  const cli = new Cli<BarrageContext>({
    binaryLabel: 'barrage: load testing',
    binaryName: 'barrage',
    binaryVersion: '1.2.3',
    enableColors: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const command of commands) cli.register(command);
  const list = commandList(cli, commands);
  t.equal(list, cli.usage());
  t.match(list, /General commands\n\n {2}barrage compare /);
});
