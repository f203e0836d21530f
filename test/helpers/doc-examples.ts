/**
 * The examples of README.md and docs/*.md that say they are complete: a fenced `yaml`, `json` or
 * `ts` block right after an `<!-- example -->` comment (a blank line between them is allowed).
 * The comment may say how the block is read:
 * - `<!-- example -->`: the block is a whole configuration file (or scenario);
 * - `<!-- example: alternatives -->`: each top-level entry of the block (a line that does not
 *   start with a space, with the indented lines after it) is a configuration of its own;
 * - `<!-- example: endpoints -->`: the block is a list of endpoints, checked under `endpoints:`.
 * Markdown parsing is the docs' own convention here, a fence and a comment: a line starting
 * with three backquotes opens or closes a block.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** How an example's block becomes files to validate. */
export type ExampleKind = 'whole' | 'alternatives' | 'endpoints';

/** One marked block. */
export interface DocExample {
  /** `docs/configuration.md:145`: the file and the line of the opening fence. */
  readonly where: string;
  readonly language: 'yaml' | 'json' | 'ts';
  readonly kind: ExampleKind;
  readonly text: string;
}

const MARKER = /^<!-- example(?::\s*(alternatives|endpoints))?\s*-->$/;
const FENCE = /^```(yaml|json|ts)\s*$/;

/** The marked examples of one Markdown file (`name` is how it is cited). */
export function examplesOf(markdown: string, name: string): DocExample[] {
  const lines = markdown.split('\n');
  const examples: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]!.trim());
    if (marker === null) continue;
    let open = i + 1;
    if (lines[open]?.trim() === '') open++;
    const fence = FENCE.exec(lines[open] ?? '');
    if (fence === null) throw new Error(`${name}:${i + 1}: <!-- example --> not before a fence`);
    const close = lines.findIndex((line, n) => n > open && line.startsWith('```'));
    if (close < 0) throw new Error(`${name}:${open + 1}: unclosed fence`);
    examples.push({
      where: `${name}:${open + 1}`,
      language: fence[1] as DocExample['language'],
      kind: (marker[1] as ExampleKind | undefined) ?? 'whole',
      text: `${lines.slice(open + 1, close).join('\n')}\n`,
    });
    i = close;
  }
  return examples;
}

/** The configurations one example stands for (several for `alternatives`). */
export function configurationsOf(example: DocExample): string[] {
  if (example.kind === 'endpoints')
    return [`endpoints:\n${example.text.replace(/^(?=.)/gm, '  ')}`];
  if (example.kind === 'whole') return [example.text];
  const entries: string[] = [];
  for (const line of example.text.split('\n')) {
    if (line === '') continue;
    if (/^\s/.test(line) && entries.length > 0) entries[entries.length - 1] += `${line}\n`;
    else entries.push(`${line}\n`);
  }
  return entries;
}

/** README.md and every page under docs/, as `[name, text]`, from the checkout at `root`. */
export function documentationPages(root: string): [string, string][] {
  const docs = join(root, 'docs');
  const pages = readdirSync(docs)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => join(docs, file));
  return [join(root, 'README.md'), ...pages].map((path) => [
    relative(root, path),
    readFileSync(path, 'utf8'),
  ]);
}
