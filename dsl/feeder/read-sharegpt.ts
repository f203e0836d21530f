/**
 * A ShareGPT dataset → prompt records (docs/llm.md, "Prompt datasets"), read as vLLM's benchmark
 * reads it (benchmarks/benchmark_dataset.py, ShareGPTDataset): a JSON array of conversations
 * `{ conversations: [{ from, value }, …] }`. Each conversation with a human turn followed by a
 * gpt turn gives one record:
 *   prompt      the first human turn's text
 *   messages    [{ role: user, content: prompt }], typed JSON for a chat body
 *   max_tokens  with `max_tokens: N`, N (vLLM's --sharegpt-output-len); with `max_tokens: reply`,
 *               the reply's length in tokens as ⌈UTF-16 length / 4⌉ (at least 1): barrage has no
 *               tokenizer, where vLLM tokenizes the reply with the model's
 * A conversation without such a pair (vLLM: fewer than two turns) is skipped. A conversation or
 * turn of the wrong shape is an error naming its line.
 *
 * The file is never whole in memory: it is read in chunks through @streamparser/json's tokenizer
 * and token parser, which hands over each conversation of the top-level array and keeps none
 * (keepStack: false), so the bound is on the file (MAX_SHAREGPT_BYTES), and memory holds the
 * prompts' table. The lines are counted on the bytes as the tokens pass (a conversation's line is
 * that of its `{`), each byte once.
 */
import {
  TokenParser,
  TokenParserError,
  Tokenizer,
  TokenizerError,
  TokenType,
  type ParsedTokenInfo,
} from '@streamparser/json';
import { readSync } from 'node:fs';
import type { FeederTable } from '../../model/plan/plan.js';
import { err, ok, type Result } from '../result.js';
import { FeederTableBuilder } from './feeder-table-builder.js';

/** Largest ShareGPT file read: ShareGPT_V3_unfiltered_cleaned_split.json is 642 MB. */
export const MAX_SHAREGPT_BYTES = 2 * 1024 * 1024 * 1024;

/** What each conversation's max_tokens is: a fixed count, the reply's estimate, or none. */
export type ShareGptMaxTokens = number | 'reply' | undefined;

/** A problem in the file: what was expected, what it holds, and where. */
export interface ShareGptProblem {
  readonly expected: string;
  readonly actual: string;
  readonly line?: number;
}

/** The smallest conversation a record comes from: no file holds more records than size / this. */
const SMALLEST = JSON.stringify({
  conversations: [
    { from: 'human', value: '' },
    { from: 'gpt', value: '' },
  ],
}).length;

const CHUNK_BYTES = 64 * 1024;

/** Counts the lines of the bytes read so far, up to a byte offset, each byte once. */
class LineCounter {
  #line = 1;
  #at = 0;
  #chunk: Uint8Array = new Uint8Array(0);
  #chunkStart = 0;

  /**
   * The next chunk, starting at byte `start` of the file; the one before must have been counted
   * to its end (lineOf its end), since the reader reuses its buffer.
   */
  next(chunk: Uint8Array, start: number): void {
    this.#chunk = chunk;
    this.#chunkStart = start;
  }

  /** The line of byte `offset` (not before the last one asked for). */
  lineOf(offset: number): number {
    this.#lineUpTo(offset);
    return this.#line;
  }

  #lineUpTo(offset: number): void {
    const end = Math.min(offset, this.#chunkStart + this.#chunk.length);
    for (let i = Math.max(this.#at, this.#chunkStart); i < end; i++)
      if (this.#chunk[i - this.#chunkStart] === 0x0a) this.#line++;
    this.#at = Math.max(this.#at, end);
  }
}

/** Reads the dataset of `fd` (`size` bytes, `chunkBytes` at a time) into a table of prompt records. */
export function parseShareGpt(
  fd: number,
  size: number,
  maxTokens: ShareGptMaxTokens,
  chunkBytes = CHUNK_BYTES,
): Result<FeederTable, ShareGptProblem> {
  const fields = ['prompt', 'messages', ...(maxTokens === undefined ? [] : ['max_tokens'])];
  const builder = new FeederTableBuilder(fields, size, Math.floor(size / SMALLEST) + 1);
  const lines = new LineCounter();
  let depth = 0;
  let entryLine = 1;
  let lastOffset = 0;
  let problem: ShareGptProblem | undefined;
  const parser = new TokenParser({ paths: ['$.*'], keepStack: false });
  parser.onValue = ({ value }) => {
    if (problem !== undefined) return;
    const record = recordOf(value, maxTokens);
    if (typeof record === 'string') problem = { ...shapeProblem(record, value), line: entryLine };
    else if (record !== undefined) builder.add(record, [false, true, true]);
  };
  const tokenizer = new Tokenizer();
  tokenizer.onToken = (token: ParsedTokenInfo) => {
    lastOffset = token.offset;
    if (depth === 0 && token.token !== TokenType.LEFT_BRACKET)
      problem ??= { expected: 'a JSON array of conversations', actual: describeToken(token) };
    if (depth === 1 && startsValue(token)) entryLine = lines.lineOf(token.offset);
    depth += opens(token) ? 1 : closes(token) ? -1 : 0;
    parser.write(token);
  };
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const chunk = new Uint8Array(Math.min(chunkBytes, Math.max(size, 1)));
  try {
    for (let offset = 0; offset < size && problem === undefined;) {
      const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - offset), offset);
      if (read === 0) break;
      const bytes = chunk.subarray(0, read);
      utf8.decode(bytes, { stream: true });
      lines.next(bytes, offset);
      tokenizer.write(bytes);
      offset += read;
      lines.lineOf(offset);
    }
    if (problem === undefined) {
      utf8.decode();
      tokenizer.end();
    }
  } catch (error) {
    problem ??= readProblem(error, lines.lineOf(lastOffset));
  }
  if (problem !== undefined) return err(problem);
  return ok(builder.finish());
}

/** The JSON or UTF-8 error the readers threw, as a problem at `line`; a bug is thrown on. */
function readProblem(error: unknown, line: number): ShareGptProblem {
  if (error instanceof TokenizerError || error instanceof TokenParserError)
    return { expected: 'a JSON array of conversations', actual: error.message, line };
  // TextDecoder's fatal mode throws a TypeError on bytes that are not UTF-8.
  if (error instanceof TypeError) return { expected: 'UTF-8 text', actual: error.message, line };
  throw error;
}

/** True for the first token of a value (in an array: any but a comma or its end). */
function startsValue(token: ParsedTokenInfo): boolean {
  return token.token !== TokenType.COMMA && !closes(token);
}

function opens(token: ParsedTokenInfo): boolean {
  return token.token === TokenType.LEFT_BRACE || token.token === TokenType.LEFT_BRACKET;
}

function closes(token: ParsedTokenInfo): boolean {
  return token.token === TokenType.RIGHT_BRACE || token.token === TokenType.RIGHT_BRACKET;
}

function describeToken(token: ParsedTokenInfo): string {
  return token.token === TokenType.LEFT_BRACE ? 'an object' : JSON.stringify(token.value);
}

/** What a conversation that is not one holds, quoted short. */
function shapeProblem(expected: string, value: unknown): ShareGptProblem {
  return { expected, actual: JSON.stringify(value)?.slice(0, 60) ?? 'undefined' };
}

/**
 * A conversation's record (its values in field order), undefined to skip it (no human turn
 * followed by a gpt turn), or what was expected of a conversation of the wrong shape.
 */
function recordOf(value: unknown, maxTokens: ShareGptMaxTokens): string[] | string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return 'a conversation { conversations: [{ from, value }, …] }';
  const turns = (value as { conversations?: unknown }).conversations;
  if (!Array.isArray(turns)) return 'conversations: a list of turns { from, value }';
  for (const turn of turns as unknown[])
    if (!isTurn(turn)) return 'a turn { from, value } of strings';
  const list = turns as readonly Turn[];
  const at = list.findIndex((t, i) => t.from === 'human' && list[i + 1]?.from === 'gpt');
  if (at < 0) return undefined;
  const prompt = list[at]!.value;
  const record = [prompt, JSON.stringify([{ role: 'user', content: prompt }])];
  if (maxTokens === 'reply')
    record.push(String(Math.max(1, Math.ceil(list[at + 1]!.value.length / 4))));
  else if (maxTokens !== undefined) record.push(String(maxTokens));
  return record;
}

interface Turn {
  readonly from: string;
  readonly value: string;
}

function isTurn(turn: unknown): turn is Turn {
  if (turn === null || typeof turn !== 'object') return false;
  const { from, value } = turn as Partial<Record<string, unknown>>;
  return typeof from === 'string' && typeof value === 'string';
}
