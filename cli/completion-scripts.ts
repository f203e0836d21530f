/**
 * `barrage completion bash|zsh|fish`: the shell's completion script, generated from the commands'
 * own declarations (their names, descriptions and flags), so it never drifts from the parser.
 * Each script completes the command word (and a file: `barrage load.yaml` runs it), then the
 * flags of the command named (`run`'s when the first word is a file), and files elsewhere.
 */

/** A flag as the shells offer it. */
export interface CompletedFlag {
  /** Names with their dashes: `-c`, `--concurrency`. */
  readonly names: readonly string[];
  readonly description: string;
  readonly takesValue: boolean;
}

/** A command word and its flags. */
export interface CompletedCommand {
  readonly name: string;
  readonly description: string;
  readonly flags: readonly CompletedFlag[];
}

/** The shells with a script. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Words that are not commands of their own: `help [command]`, `version`. */
const EXTRA: readonly CompletedCommand[] = [
  { name: 'help', description: 'Show the commands, or one command’s flags', flags: [] },
  { name: 'version', description: 'Print the version', flags: [] },
];

/** The script for `shell`; `commands` are barrage's, `run` among them (the default command). */
export function completionScript(shell: Shell, commands: readonly CompletedCommand[]): string {
  const all = [...commands, ...EXTRA].sort((a, b) => (a.name < b.name ? -1 : 1));
  const run = commands.find((c) => c.name === 'run');
  switch (shell) {
    case 'bash':
      return bashScript(all, run);
    case 'zsh':
      return zshScript(all, run);
    case 'fish':
      return fishScript(all);
  }
}

const names = (command: CompletedCommand | undefined): string =>
  (command?.flags ?? []).flatMap((f) => f.names).join(' ');

/** A word list's case arms: `run) flags="…" ;;`. */
function caseArms(commands: readonly CompletedCommand[], assign: string): string {
  return commands
    .filter((c) => c.flags.length > 0)
    .map((c) => `    ${c.name}) ${assign}"${names(c)}" ;;`)
    .join('\n');
}

function bashScript(commands: readonly CompletedCommand[], run: CompletedCommand | undefined) {
  const words = commands.map((c) => c.name).join(' ');
  return `# barrage completion for bash. Load it with: eval "$(barrage completion bash)"
# or save it as ~/.local/share/bash-completion/completions/barrage
_barrage() {
  local cur=\${COMP_WORDS[COMP_CWORD]} flags
  if [ "$COMP_CWORD" -eq 1 ] && [[ $cur != -* ]]; then
    COMPREPLY=($(compgen -W "${words}" -- "$cur") $(compgen -f -- "$cur"))
    return
  fi
  case \${COMP_WORDS[1]} in
    help) COMPREPLY=($(compgen -W "${words}" -- "$cur")); return ;;
    completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
${caseArms(commands, 'flags=')}
    *) flags="${names(run)}" ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _barrage barrage
`;
}

/** A zsh single-quoted word. */
const zshQuote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

function zshScript(commands: readonly CompletedCommand[], run: CompletedCommand | undefined) {
  const described = commands.map((c) => `    ${zshQuote(`${c.name}:${c.description}`)}`);
  return `#compdef barrage
# barrage completion for zsh. Load it with: source <(barrage completion zsh)
# or save it as _barrage in a folder of $fpath
_barrage() {
  local -a commands flags
  commands=(
${described.join('\n')}
  )
  if (( CURRENT == 2 )) && [[ $PREFIX != -* ]]; then
    _describe 'command' commands
    _files
    return
  fi
  case $words[2] in
    help) _describe 'command' commands; return ;;
    completion) compadd bash zsh fish; return ;;
${caseArms(commands, 'flags=(').replaceAll('" ;;', ') ;;').replaceAll('=("', '=(')}
    *) flags=(${names(run)}) ;;
  esac
  if [[ $PREFIX == -* ]]; then
    compadd -- $flags
  else
    _files
  fi
}
if (( $+functions[compdef] )); then compdef _barrage barrage; fi
`;
}

/** A fish single-quoted word. */
const fishQuote = (text: string): string =>
  `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function fishScript(commands: readonly CompletedCommand[]) {
  const words = commands.map((c) => c.name).join(' ');
  const lines = [
    '# barrage completion for fish. Load it with: barrage completion fish | source',
    '# or save it as ~/.config/fish/completions/barrage.fish',
    'complete -c barrage -e',
    ...commands.map(
      (c) =>
        `complete -c barrage -n '__fish_use_subcommand' -a ${c.name} -d ${fishQuote(c.description)}`,
    ),
    `complete -c barrage -f -n '__fish_seen_subcommand_from help' -a '${words}'`,
    "complete -c barrage -f -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'",
  ];
  for (const command of commands) {
    // `run` is also the default command: its flags follow a file as the first word too.
    const when =
      command.name === 'run'
        ? `__fish_seen_subcommand_from run; or not __fish_seen_subcommand_from ${words}`
        : `__fish_seen_subcommand_from ${command.name}`;
    for (const flag of command.flags) {
      const parts = flag.names.map((n) =>
        n.startsWith('--') ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`,
      );
      const value = flag.takesValue ? ' -r' : '';
      lines.push(
        `complete -c barrage -n ${fishQuote(when)} ${parts.join(' ')}${value} -d ${fishQuote(flag.description)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
