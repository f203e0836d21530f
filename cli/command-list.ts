/**
 * `barrage --help`: the list of commands as clipanion's `usage()` prints it with colours off.
 * clipanion sorts that list with `localeCompare`, whose first use loads ICU's collator, about 9 ms
 * of a start that costs 60; barrage's usages are sorted by code unit, which orders its lowercase
 * command names alike (test/cli/command-list.test.ts compares the two texts).
 */
import { formatMarkdownish, type Cli, type CommandClass } from 'clipanion';
import type { BarrageContext } from './context.js';

const MORE =
  'You can also print more details about any of these commands by calling them with the `-h,--help` flag right after the command name.';

/** The list of `commands`, registered with `cli`. */
export function commandList(
  cli: Cli<BarrageContext>,
  commands: readonly CommandClass<BarrageContext>[],
): string {
  const format = cli.format(false);
  const entries = commands
    .map((command) => ({
      usage: cli.usage(command, { detailed: false, prefix: '' }).trimEnd(),
      description: formatMarkdownish(command.usage?.description ?? 'undocumented', {
        format,
        paragraphs: false,
      }),
    }))
    .sort((a, b) => (a.usage < b.usage ? -1 : a.usage > b.usage ? 1 : 0));
  let text = `${cli.binaryLabel} - ${cli.binaryVersion}\n\n  $ ${cli.binaryName} <command>\n\n`;
  text += 'General commands\n';
  for (const { usage, description } of entries) text += `\n  ${usage}\n    ${description}`;
  return `${text}\n${formatMarkdownish(MORE, { format, paragraphs: true })}`;
}
