/**
 * The first words a k6 (or git) user types: `barrage help [command]` and `barrage version`, and a
 * misspelt command (`barrage valdiate`) answered with the nearest one instead of being read as a
 * configuration file. A first word that names an existing file, or looks like a path (a dot or a
 * slash in it), is left to `run` as its CONFIG.
 */
import { closest } from '../dsl/grammar/did-you-mean.js';

/** The arguments to parse, or what to print and the exit code. */
export type FirstWord =
  | { readonly argv: readonly string[] }
  | { readonly exitCode: number; readonly stdout?: string; readonly stderr?: string };

const SEE = '(barrage help lists the commands)';

/**
 * Reads the first word of `argv` against the command names; `exists` says whether a path is a
 * file or folder of the working directory.
 */
export function readFirstWord(
  argv: readonly string[],
  commands: readonly string[],
  version: string,
  exists: (path: string) => boolean,
): FirstWord {
  const [first, second, ...rest] = argv;
  if (first === undefined || first.startsWith('-') || commands.includes(first)) return { argv };
  if (exists(first)) return { argv };
  if (first === 'version' && second === undefined) return { exitCode: 0, stdout: `${version}\n` };
  if (first === 'help' && rest.length === 0) {
    if (second === undefined) return { argv: ['--help'] };
    if (commands.includes(second)) return { argv: [second, '--help'] };
    const guess = closest(second, commands);
    const mean = guess === undefined ? '' : `; did you mean ${guess}?`;
    return { exitCode: 1, stderr: `barrage: no command "${second}" to help with${mean} ${SEE}\n` };
  }
  if (/[./\\]/.test(first)) return { argv };
  const guess = closest(first, [...commands, 'help', 'version']);
  if (guess === undefined) return { argv };
  return {
    exitCode: 1,
    stderr: `barrage: unknown command "${first}"; did you mean barrage ${guess}? ${SEE}\n`,
  };
}
