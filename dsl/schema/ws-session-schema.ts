/**
 * A WebSocket endpoint's `session`: the steps of one session, in order (docs/configuration.md,
 * WebSocket endpoints). Each step is a mapping with one of send, receive, listen or pause:
 *
 *   { send: <text> | { text } | { binary: base64:… }, reply?: any | <match>, timeout?, extract? }
 *   { receive: any | <match>, timeout?, extract? }
 *   { listen: <duration>, match?: <match> }
 *   { pause: <duration> }
 *
 * A match selects a frame by its content: { json: $.path } (the path finds a value),
 * { json: $.path, equals: <value> } (placeholders allowed in a text value), { json: $.path,
 * matches: <regex> }, or { regex: <pattern> } (the frame's text). The mapping's keys are checked
 * as a whole (stepRules, matchRules), so each problem is named by its key.
 */
import * as z from 'zod';
import { parseTemplate } from '../grammar/placeholder.js';
import { extractMap } from './extractor-schema.js';
import { duration, template } from './fields.js';
import { jsonPath, regexPattern } from './pattern-fields.js';

/** Canonical base64 (RFC 4648 §4): whole quanta, padding only at the end. */
const BASE64 = /^base64:(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A WebSocket message: UTF-8 text (placeholders allowed) or bytes written base64:… */
export function wsMessageSchema() {
  return z.union(
    [
      z.strictObject({ text: template('WebSocket text message') }),
      z.strictObject({
        binary: z.string().regex(BASE64, {
          error:
            'base64:<data> in standard base64, such as base64:AAECAw== (binary WebSocket message)',
        }),
      }),
    ],
    { error: '{ text: <string> } or { binary: "base64:<data>" }' },
  );
}

const MATCH_FORMS =
  'any, or a match: { json: <path> } with equals: <value> or matches: <regex> (optional), or { regex: <pattern> }';

/** The zod issue of one key of a mapping. */
export interface KeyIssue {
  readonly path: (string | number)[];
  readonly message: string;
  readonly input: unknown;
  readonly params: { readonly code: 'invalid_value' | 'invalid_placeholder'; readonly at?: string };
}

/** The issue of `key` of `mapping`. */
export function keyIssue(
  mapping: object,
  key: string,
  message: string,
  code: KeyIssue['params']['code'] = 'invalid_value',
): KeyIssue {
  return {
    path: [key],
    message,
    input: (mapping as Record<string, unknown>)[key],
    params: { code },
  };
}

/** The keys of a mapping whose value is given. */
export function givenKeys(mapping: object): string[] {
  return Object.entries(mapping)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
}

/** A match of a frame's (an event's) content; socketio-schema.ts takes it too. */
export function matchObject() {
  return z
    .strictObject(
      {
        json: jsonPath().optional(),
        equals: z.json().optional(),
        matches: regexPattern().optional(),
        regex: regexPattern().optional(),
      },
      { error: MATCH_FORMS },
    )
    .superRefine((match, ctx) => {
      for (const issue of matchRules(match)) ctx.addIssue({ code: 'custom', ...issue });
    });
}

/** A frame's content as a match reads it (the schema's output). */
export type FrameMatchConfig = z.output<ReturnType<typeof matchObject>>;

/** One of json or regex; equals or matches only beside json, one of them; equals' placeholders. */
function matchRules(match: FrameMatchConfig): KeyIssue[] {
  const keys = givenKeys(match);
  const subjects = keys.filter((k) => k === 'json' || k === 'regex');
  if (subjects.length !== 1)
    return [
      keyIssue(match, subjects[1] ?? keys[0] ?? 'json', `${MATCH_FORMS}: one of json or regex`),
    ];
  const out: KeyIssue[] = [];
  if (subjects[0] === 'regex')
    for (const key of keys.filter((k) => k !== 'regex'))
      out.push(keyIssue(match, key, `nothing beside regex (${key} goes with json)`));
  else if (match.equals !== undefined && match.matches !== undefined)
    out.push(keyIssue(match, 'matches', 'one of equals or matches, not both'));
  if (typeof match.equals === 'string') {
    const parsed = parseTemplate(match.equals);
    if (!parsed.ok)
      out.push({
        ...keyIssue(match, 'equals', parsed.error.message, 'invalid_placeholder'),
        params: {
          code: 'invalid_placeholder',
          at: `${parsed.error.part} at character ${parsed.error.position + 1}`,
        },
      });
  }
  return out;
}

/** `any` (the first frame) or a match of the frame's content. */
export function frameSelector(match: ReturnType<typeof matchObject>) {
  return z.union([z.literal('any'), match], { error: MATCH_FORMS });
}

function sendPayload() {
  return z.union([template('WebSocket text message'), wsMessageSchema()], {
    error: 'a text message, { text: <string> } or { binary: "base64:<data>" }',
  });
}

const STEP_KINDS = ['send', 'receive', 'listen', 'pause'] as const;
const STEP_FORMS =
  'a step: one of send: <message>, receive: any | <match>, listen: <duration> or pause: <duration>';
/** Keys each kind of step takes besides its own. */
const STEP_KEYS: Readonly<Record<(typeof STEP_KINDS)[number], readonly string[]>> = {
  send: ['reply', 'timeout', 'extract'],
  receive: ['timeout', 'extract'],
  listen: ['match'],
  pause: [],
};

/** The step forms stepIssues checks. */
const WS_STEPS: StepGrammar<(typeof STEP_KINDS)[number]> = {
  kinds: STEP_KINDS,
  keys: STEP_KEYS,
  forms: STEP_FORMS,
  waiting: { kind: 'send', key: 'reply' },
};

function stepSchema() {
  // One match schema for reply, receive and match: barrage.schema.json then holds its recursive
  // `equals` (any JSON value) once.
  const match = matchObject();
  return z
    .strictObject(
      {
        send: sendPayload().optional(),
        reply: frameSelector(match).optional(),
        receive: frameSelector(match).optional(),
        listen: duration('how long the session listens').optional(),
        match: match.optional(),
        pause: duration('pause of the session').optional(),
        timeout: duration('wait for the frame').optional(),
        extract: extractMap().optional(),
      },
      { error: STEP_FORMS },
    )
    .superRefine((step, ctx) => {
      for (const issue of stepIssues(step, WS_STEPS)) ctx.addIssue({ code: 'custom', ...issue });
    });
}

/** One step as written (the schema's output). */
export type WsStepConfig = z.output<ReturnType<typeof stepSchema>>;

/** "a send", "an emit". */
const article = (word: string): string => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/** A session's step forms: its kinds, the keys each takes, and the kind whose keys need a wait. */
export interface StepGrammar<Kind extends string> {
  readonly kinds: readonly Kind[];
  readonly keys: Readonly<Record<Kind, readonly string[]>>;
  /** The forms, as an error message says them. */
  readonly forms: string;
  /** The kind (send, emit) whose other keys (timeout, extract) need its wait (reply, ack). */
  readonly waiting: { readonly kind: Kind; readonly key: string };
}

/** Exactly one kind; only the keys that kind takes; the waiting kind's other keys need its wait. */
export function stepIssues<Kind extends string>(
  step: Record<string, unknown>,
  grammar: StepGrammar<Kind>,
): KeyIssue[] {
  const keys = givenKeys(step);
  const kinds = grammar.kinds.filter((k) => keys.includes(k));
  const { kind: waiting, key: wait } = grammar.waiting;
  if (kinds.length !== 1)
    return [
      keyIssue(
        step,
        kinds[1] ?? keys[0] ?? waiting,
        `${grammar.forms}, not ${kinds.join(' and ') || 'none'}`,
      ),
    ];
  const kind = kinds[0]!;
  const allowed = grammar.keys[kind];
  const out: KeyIssue[] = [];
  for (const key of keys) {
    if (key === kind) continue;
    if (!allowed.includes(key))
      out.push(
        keyIssue(
          step,
          key,
          allowed.length === 0
            ? `nothing beside ${kind}`
            : `a key a ${kind} step takes: ${allowed.join(', ')}`,
        ),
      );
    else if (kind === waiting && key !== wait && step[wait] === undefined)
      out.push(
        keyIssue(
          step,
          key,
          `${key} beside ${wait} (${article(kind)} without ${wait} waits for nothing)`,
        ),
      );
  }
  return out;
}

/**
 * `session`: the steps of each session of a WebSocket endpoint, in order; a step's schema is
 * built at the first step parsed.
 */
export function wsSessionSchema() {
  return z
    .array(z.lazy(stepSchema), { error: `a list of steps, each ${STEP_FORMS}` })
    .min(1, { error: 'at least one step' })
    .describe(
      'Steps of each session: send (with reply), receive, listen and pause (see docs/configuration.md, WebSocket endpoints)',
    );
}
