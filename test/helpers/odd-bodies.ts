/**
 * Response bodies a target may send that are JSON scalars or odd shapes, with what a JSON
 * extractor reads from each at each path: the text stored in the variable, undefined when
 * nothing is found (the variable stays unset), or EXTRACT_ERROR when reading the body fails the
 * request (error kind `extract_error`). The module test (extract.test.ts) and the spawned CLI
 * (target-answers.test.ts) check the same table.
 */

/** Reading the body fails the request with error kind `extract_error`. */
export const EXTRACT_ERROR = { kind: 'extract_error' } as const;

/** What an extractor yields: the stored text, undefined (nothing found) or EXTRACT_ERROR. */
export type Yield = string | undefined | typeof EXTRACT_ERROR;

/** A body a target answers with. */
export interface OddBody {
  readonly name: string;
  readonly bytes: Buffer;
  /** Path → what the extractor yields. */
  readonly expect: Readonly<Record<OddPath, Yield>>;
}

/** The JSONPaths every body is read with. */
export const ODD_PATHS = ['$', '$.a', '$[0]', '$..*'] as const;

/** One of ODD_PATHS. */
export type OddPath = (typeof ODD_PATHS)[number];

/** Nested deeper than jsonpath-plus can recurse (JSON.parse reads it). */
export const DEEP_ARRAYS = '['.repeat(10_000) + ']'.repeat(10_000);

/**
 * What `$` or `$[0]` (`inner`) of DEEP_ARRAYS yields: its JSON text where JSON.stringify is not
 * recursive (V8 14, Node 26), extract_error where it overflows the stack (Node 22 and 24).
 */
function deepYield(inner: boolean): Yield {
  try {
    JSON.stringify(JSON.parse(DEEP_ARRAYS));
  } catch {
    return EXTRACT_ERROR;
  }
  return inner ? DEEP_ARRAYS.slice(1, -1) : DEEP_ARRAYS;
}

const text = (s: string): Buffer => Buffer.from(s, 'utf8');
const nothing = { $: undefined, '$.a': undefined, '$[0]': undefined, '$..*': undefined };
const rootOnly = (root: string): OddBody['expect'] => ({ ...nothing, $: root });

/** Every body of the table. */
export const ODD_BODIES: readonly OddBody[] = [
  { name: 'null', bytes: text('null'), expect: nothing },
  { name: 'false', bytes: text('false'), expect: rootOnly('false') },
  { name: 'true', bytes: text('true'), expect: rootOnly('true') },
  { name: 'zero', bytes: text('0'), expect: rootOnly('0') },
  { name: 'minus one', bytes: text('-1'), expect: rootOnly('-1') },
  // Beyond the double range: JSON.parse gives Infinity, which has no JSON text.
  { name: '1e400', bytes: text('1e400'), expect: nothing },
  {
    name: 'huge integer',
    bytes: text('123456789012345678901234567890'),
    expect: rootOnly('1.2345678901234568e+29'),
  },
  { name: 'empty string', bytes: text('""'), expect: rootOnly('') },
  // A string is not indexed: "$[0]" of "str" finds nothing, not "s".
  { name: 'string', bytes: text('"str"'), expect: rootOnly('str') },
  { name: 'empty list', bytes: text('[]'), expect: rootOnly('[]') },
  { name: 'empty mapping', bytes: text('{}'), expect: rootOnly('{}') },
  {
    name: 'deeply nested lists',
    bytes: text(DEEP_ARRAYS),
    expect: {
      $: deepYield(false),
      '$.a': undefined,
      '$[0]': deepYield(true),
      '$..*': EXTRACT_ERROR,
    },
  },
  { name: 'invalid JSON', bytes: text('{"a": 1'), expect: nothing },
  { name: 'empty body', bytes: Buffer.alloc(0), expect: nothing },
  {
    // {"a":"é"} in Latin-1: the byte 0xe9 is not UTF-8 and reads as U+FFFD.
    name: 'not UTF-8',
    bytes: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
    expect: { $: '{"a":"\ufffd"}', '$.a': '\ufffd', '$[0]': undefined, '$..*': '\ufffd' },
  },
  {
    name: 'byte order mark',
    bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text('{"a":[1]}')]),
    expect: { $: '{"a":[1]}', '$.a': '[1]', '$[0]': undefined, '$..*': '[1]' },
  },
];
