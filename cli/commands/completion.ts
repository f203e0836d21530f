/**
 * `barrage completion bash|zsh|fish`: prints the shell's completion script, made from every
 * command's declaration (main.ts registers them all for this command).
 */
import { Command, Option, type Definition } from 'clipanion';
import { ConfigError } from '../../dsl/issues.js';
import { ExitCode } from '../exit-code.js';
import { BaseCommand } from './base-command.js';

/** Prints a completion script. */
export class CompletionCommand extends BaseCommand {
  static override paths = [['completion']];

  protected override readonly issuesIn = 'in the arguments';

  static override usage = Command.Usage({
    description: 'Print the shell completion script for bash, zsh or fish',
    details: `
      Prints a script that completes barrage's commands, their flags and file names. Load it in
      the shell's start-up file, or save it where the shell looks for completions.
    `,
    examples: [
      ['bash (in ~/.bashrc)', 'eval "$($0 completion bash)"'],
      ['zsh (in ~/.zshrc, after compinit)', 'source <($0 completion zsh)'],
      ['fish', '$0 completion fish > ~/.config/fish/completions/barrage.fish'],
    ],
  });

  shell = Option.String({ name: 'SHELL' });

  /** Prints the script. */
  async run(): Promise<number> {
    const { SHELLS, completionScript } = await import('../completion-scripts.js');
    const shell = SHELLS.find((s) => s === this.shell);
    if (shell === undefined)
      throw new ConfigError([
        {
          code: 'invalid_value',
          source: { kind: 'flag', flag: 'SHELL' },
          path: [],
          expected: `one of ${SHELLS.join(', ')}`,
          actual: JSON.stringify(this.shell),
        },
      ]);
    const commands = this.cli.definitions().map(completedCommand);
    this.context.stdout.write(completionScript(shell, commands));
    return ExitCode.Ok;
  }
}

/** A clipanion definition (`barrage run`, options `-c,--concurrency #0`) as the scripts use it. */
function completedCommand(definition: Definition) {
  return {
    name: definition.path.split(' ').slice(1).join(' '),
    description: oneLine(definition.description),
    flags: definition.options.map((option) => {
      const [list = '', ...value] = option.definition.split(' ');
      return {
        names: list.split(','),
        description: oneLine(option.description),
        takesValue: value.length > 0,
      };
    }),
  };
}

/** A description on one line, as a completion menu shows it. */
function oneLine(text: string | undefined): string {
  return (text ?? '').trim().replace(/\s+/g, ' ');
}
