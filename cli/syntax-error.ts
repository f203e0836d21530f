/**
 * A command line clipanion refused, explained the way barrage explains a misspelt key: which flag,
 * for which command, and the nearest real one (did-you-mean), then that command's short usage.
 * clipanion's own error says `Unsupported option name ("--concurency")` followed by the usage of
 * every option; its reason is text, so instead of reading it this file scans argv against the
 * command's declared options (clipanion's definitions) to find the flag that failed:
 *
 *   argv      := command-path? token*
 *   token     := "--" (everything after is positional) | flag | value
 *   flag      := "--" name ("=" value)? | "-" letter      (a value flag takes the next token,
 *                                                          unless it is missing or another flag)
 *
 * Loaded only when parsing failed, so a normal start pays nothing for it.
 */
import type { Definition } from 'clipanion';
import { closest } from '../dsl/grammar/did-you-mean.js';
import { k6FlagHint } from './k6-flags.js';

/** A declared option: its names (`-c`, `--concurrency`) and whether it takes a value. */
interface OptionSpec {
  readonly names: readonly string[];
  readonly takesValue: boolean;
}

/** What is wrong with the flags of a command line, if the scan finds it. */
type FlagProblem =
  | { readonly kind: 'unknown'; readonly flag: string; readonly guess: string | undefined }
  | { readonly kind: 'missing-value'; readonly flag: string; readonly next?: string };

/** Flags every command accepts (clipanion's built-in help). */
const HELP: OptionSpec = { names: ['-h', '--help'], takesValue: false };

/**
 * The message for a refused command line, or undefined when the scan finds no flag at fault (the
 * caller then shows clipanion's own). `defaultPath` is the command run when argv names none.
 */
export function explainSyntaxError(
  error: unknown,
  argv: readonly string[],
  definitions: readonly Definition[],
  defaultPath: readonly string[],
): string | undefined {
  const byPath = (path: readonly string[]): Definition | undefined =>
    definitions.find((d) => d.path === ['barrage', ...path].join(' '));
  const named = definitions.find((d) => {
    const words = d.path.split(' ').slice(1);
    return words.length > 0 && words.every((word, i) => argv[i] === word);
  });
  const definition = named ?? byPath(defaultPath);
  if (definition === undefined) return undefined;
  const given = named === undefined ? argv : argv.slice(definition.path.split(' ').length - 1);
  const options = [HELP, ...definition.options.map(optionSpec)];
  const problem = findProblem(given, options);
  const command = `"${definition.path}"`;
  let first: string;
  if (problem?.kind === 'unknown') {
    const k6 = k6FlagHint(problem.flag);
    const guess =
      k6 !== undefined
        ? `: ${k6}`
        : problem.guess === undefined
          ? ''
          : `; did you mean ${problem.guess}?`;
    first = `barrage: unknown flag ${problem.flag} for ${command}${guess}`;
  } else if (problem?.kind === 'missing-value') {
    const got =
      problem.next === undefined
        ? 'none'
        : `${JSON.stringify(problem.next)}, read as a flag (a negative value is written ${problem.flag}=${problem.next})`;
    first = `barrage: flag ${problem.flag} for ${command}: expected a value, got ${got}`;
  } else {
    const reason = reasonFor(error, definition);
    if (reason === undefined) return undefined;
    first = `barrage: ${command} cannot take these arguments: ${reason}`;
  }
  return `${first}\n${shortUsage(definition)}\n`;
}

/** clipanion's reason for refusing this command (an UnknownSyntaxError's candidate), if any. */
function reasonFor(error: unknown, definition: Definition): string | undefined {
  // clipanion does not export UnknownSyntaxError: its candidates are read by shape.
  if (typeof error !== 'object' || error === null || !('candidates' in error)) return undefined;
  const { candidates } = error;
  if (!Array.isArray(candidates)) return undefined;
  for (const candidate of candidates as unknown[]) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const { usage, reason } = candidate as { usage?: unknown; reason?: unknown };
    const ours = typeof usage === 'string' && `${usage} `.startsWith(`${definition.path} `);
    if (ours && typeof reason === 'string') return reason;
  }
  return undefined;
}

/** `-c,--concurrency #0` → names -c and --concurrency, taking a value. */
function optionSpec(option: Definition['options'][number]): OptionSpec {
  const [names = '', ...rest] = option.definition.split(' ');
  return { names: names.split(','), takesValue: rest.length > 0 };
}

/** The first flag at fault, scanning left to right as clipanion reads. */
function findProblem(
  argv: readonly string[],
  options: readonly OptionSpec[],
): FlagProblem | undefined {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--') return undefined;
    if (!token.startsWith('-') || token === '-') continue;
    const equals = token.indexOf('=');
    const name = token.startsWith('--') && equals > 0 ? token.slice(0, equals) : token;
    const option = find(options, name);
    if (option === undefined) {
      const names = options.flatMap((o) => o.names).filter((n) => n.startsWith('--'));
      return { kind: 'unknown', flag: name, guess: closest(name, names) };
    }
    if (!option.takesValue || name !== token) continue;
    const next = argv[i + 1];
    // A negative number (`-c -1`) is read as a flag: the message says how to write it.
    if (next === undefined || (next.startsWith('-') && !/^-[\d.]/.test(next)))
      return { kind: 'missing-value', flag: name };
    if (next.startsWith('-')) return { kind: 'missing-value', flag: name, next };
    i++;
  }
  return undefined;
}

/** The option a flag names; `--no-x` turns a boolean `--x` off. */
function find(options: readonly OptionSpec[], name: string): OptionSpec | undefined {
  const exact = options.find((o) => o.names.includes(name));
  if (exact !== undefined) return exact;
  if (!name.startsWith('--no-')) return undefined;
  const negated = `--${name.slice(5)}`;
  return options.find((o) => !o.takesValue && o.names.includes(negated));
}

/** `usage: barrage run [options] [CONFIG]`, and where the options are listed. */
function shortUsage(definition: Definition): string {
  // clipanion writes options as [--name #0] (or <--name #0> when required) before the positionals.
  const positionals = definition.usage
    .slice(definition.path.length)
    .replace(/\s*[[<]-[^\]>]*[\]>]/g, '')
    .trim();
  const options = definition.options.length > 0 ? ' [options]' : '';
  const usage = [`${definition.path}${options}`, positionals].filter((s) => s !== '').join(' ');
  return `usage: ${usage}  (${definition.path} --help lists them all)`;
}
