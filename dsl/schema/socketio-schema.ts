/**
 * An endpoint's `socketio:` (docs/socketio.md): where a Socket.IO session connects and its steps.
 *
 *   socketio: { namespace?: /chat, path?: /socket.io, transports?: [websocket | polling, …],
 *               auth?: <mapping>, query?: <name → text>, session: [<step>, …] }
 *
 * Each step is a mapping with one of emit, receive, listen or pause:
 *
 *   { emit: { event, data? }, ack?: any | <match>, timeout?, extract? }
 *   { receive: { event, match? }, timeout?, extract? }
 *   { listen: <duration>, event?, match? }
 *   { pause: <duration> }
 *
 * A match is the WebSocket one (ws-session-schema.ts), read on the event's (or the ack's) first
 * argument as JSON. Placeholders are allowed in the event data, auth and query values; the keys
 * of a step are checked as a whole, so each problem is named by its key.
 */
import * as z from 'zod';
import { extractMap } from './extractor-schema.js';
import { checkJsonTemplates, duration, nonEmpty, template } from './fields.js';
import { frameSelector, matchObject, stepIssues, type StepGrammar } from './ws-session-schema.js';

/** A JSON value whose strings and keys may hold placeholders. */
function jsonTemplate() {
  return z
    .json({ error: 'a JSON value (text, number, boolean, null, list or mapping)' })
    .superRefine(checkJsonTemplates);
}

/** A Socket.IO event name (Socket.IO reserves connect, connect_error and disconnect). */
function eventName() {
  return nonEmpty('event name').refine(
    (name) => !['connect', 'connect_error', 'disconnect', 'disconnecting'].includes(name),
    { error: 'an event name other than connect, connect_error, disconnect or disconnecting' },
  );
}

const STEP_KINDS = ['emit', 'receive', 'listen', 'pause'] as const;
const STEP_FORMS =
  'a step: one of emit: { event, data }, receive: { event, match }, listen: <duration> or pause: <duration>';
/** Keys each kind of step takes besides its own. */
const STEP_KEYS: Readonly<Record<(typeof STEP_KINDS)[number], readonly string[]>> = {
  emit: ['ack', 'timeout', 'extract'],
  receive: ['timeout', 'extract'],
  listen: ['event', 'match'],
  pause: [],
};

/** The step forms stepIssues checks. */
const SOCKETIO_STEPS: StepGrammar<(typeof STEP_KINDS)[number]> = {
  kinds: STEP_KINDS,
  keys: STEP_KEYS,
  forms: STEP_FORMS,
  waiting: { kind: 'emit', key: 'ack' },
};

function stepSchema() {
  const match = matchObject();
  return z
    .strictObject(
      {
        emit: z
          .strictObject(
            { event: eventName(), data: jsonTemplate().optional() },
            { error: 'an event to emit: { event: <name>, data: <JSON> }' },
          )
          .optional(),
        ack: frameSelector(match).optional(),
        receive: z
          .strictObject(
            { event: eventName(), match: match.optional() },
            { error: 'an event to wait for: { event: <name>, match: <match> }' },
          )
          .optional(),
        listen: duration('how long the session listens').optional(),
        event: eventName().optional(),
        match: match.optional(),
        pause: duration('pause of the session').optional(),
        timeout: duration('wait for the event or the acknowledgement').optional(),
        extract: extractMap().optional(),
      },
      { error: STEP_FORMS },
    )
    .superRefine((step, ctx) => {
      for (const issue of stepIssues(step, SOCKETIO_STEPS))
        ctx.addIssue({ code: 'custom', ...issue });
    });
}

/** One step as written (the schema's output). */
export type SocketioStepConfig = z.output<ReturnType<typeof stepSchema>>;

/** The Engine.IO transports, as socket.io-client names them. */
const TRANSPORTS = ['websocket', 'polling'] as const;

/** `socketio:` of an endpoint: the connection and the session's steps. */
export function socketioSchema() {
  return z
    .strictObject(
      {
        namespace: z
          .string({ error: 'a namespace starting with "/", such as /chat' })
          .regex(/^\/[^\s?#]*$/, { error: 'a namespace starting with "/", such as /chat' })
          .default('/'),
        path: z
          .string({ error: "the server's Engine.IO path, such as /socket.io" })
          .regex(/^\/[^\s?#]*$/, { error: "the server's Engine.IO path, such as /socket.io" })
          .default('/socket.io'),
        transports: z
          .array(z.enum(TRANSPORTS, { error: 'websocket or polling' }), {
            error: 'a list of transports: websocket, polling',
          })
          .min(1, { error: 'at least one transport' })
          .default(['websocket'])
          .describe('Engine.IO transports tried in order (default: websocket only)'),
        auth: z
          .record(z.string(), z.json())
          .superRefine(checkJsonTemplates)
          .optional()
          .describe("The handshake's auth payload (placeholders allowed)"),
        query: z
          .record(z.string(), template('Socket.IO query value'), {
            error: 'a mapping of query names to text',
          })
          .optional()
          .describe('Handshake query parameters (placeholders allowed)'),
        session: z
          .array(z.lazy(stepSchema), { error: `a list of steps, each ${STEP_FORMS}` })
          .min(1, { error: 'at least one step' })
          .describe(
            'Steps of each session: emit (with ack), receive, listen and pause (docs/socketio.md)',
          ),
      },
      {
        error: 'Socket.IO settings: { namespace, path, transports, auth, query, session: [steps] }',
      },
    )
    .describe('A Socket.IO session instead of a request (docs/socketio.md)');
}

/** `socketio:` as written (the schema's output). */
export type SocketioConfig = z.output<ReturnType<typeof socketioSchema>>;
