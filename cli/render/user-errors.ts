/**
 * The one place ConfigIssues and warnings become text (STYLE.md rule 7): one line per problem,
 * "<source>: <key path>: expected <what>, got <given>: <detail> (did you mean …?)".
 */
import { formatPath, type ConfigIssue, type ConfigWarning, type Source } from '../../dsl/issues.js';

/** file:line:column, --flag, BARRAGE_VAR, or "default". */
export function formatSource(source: Source): string {
  switch (source.kind) {
    case 'file':
      return source.line === undefined
        ? source.file
        : `${source.file}:${source.line}:${source.column ?? 1}`;
    case 'flag':
      return source.flag;
    case 'env':
      return source.name;
    case 'scenario':
      return `${source.file} (options)`;
    case 'har':
      return source.entry === undefined
        ? source.file
        : `${source.file} log.entries[${source.entry}]`;
    case 'default':
      return 'default';
  }
}

/** One issue as one line. */
export function formatIssue(issue: ConfigIssue): string {
  const path = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
  const detail =
    issue.hint === undefined
      ? ''
      : /^did you mean/.test(issue.hint)
        ? ` (${issue.hint})`
        : `: ${issue.hint}`;
  return `${formatSource(issue.source)}: ${path}expected ${issue.expected}, got ${issue.actual}${detail}`;
}

/** Issues in reading order: flags, environment, then each file by line and column. */
function byPosition(a: ConfigIssue, b: ConfigIssue): number {
  const rank = (s: Source): number =>
    ({ flag: 0, env: 1, file: 2, scenario: 3, har: 4, default: 5 })[s.kind];
  const line = (s: Source): number => {
    if (s.kind === 'file') return (s.line ?? 0) * 1e6 + (s.column ?? 0);
    return s.kind === 'har' ? (s.entry ?? -1) : 0;
  };
  return rank(a.source) - rank(b.source) || line(a.source) - line(b.source);
}

/** What a command's issues are problems in, by default: a configuration that was to be run. */
export const CONFIGURATION_ISSUES = 'in the configuration (nothing was sent)';

/** What the issues of commands that read results (compare, merge) are problems in. */
export const INPUT_FILE_ISSUES = 'in the input files';

/**
 * The error block printed on stderr when loading fails; `where` says what the problems are in
 * (commands that read results, such as compare and merge, say "in the input files").
 */
export function formatIssues(unsorted: readonly ConfigIssue[], where: string): string {
  const issues = [...unsorted].sort(byPosition);
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  return (
    [
      `barrage: ${count} ${where}:`,
      ...issues.map((issue) => `  error: ${formatIssue(issue)}`),
    ].join('\n') + '\n'
  );
}

/** Warnings, one per line. */
export function formatWarnings(warnings: readonly ConfigWarning[]): string {
  return warnings.map((w) => `warning: ${formatSource(w.source)}: ${w.message}\n`).join('');
}
