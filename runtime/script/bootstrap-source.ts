/**
 * The sources evaluated in a segment's isolate (DESIGN.md §9). Host and isolate talk through a
 * hub — a context of its own that holds no user code — in batches of primitive records: the host
 * sends every message of an event-loop turn with one call of pump(records) and collects what the
 * isolate's code asked for in the meantime with one call of take(). A crossing costs as much as a
 * good part of a scripted request, so batching them is what keeps scripted load close to YAML's.
 *
 * HUB_SOURCE is evaluated as a closure and returns [add, pump, take, post]:
 *   add(vu, entry)    registers a virtual user's entry function
 *   pump(records)     delivers a flat array of records [vu, kind, a, b, c, …] to the entries
 *   take()            the flat array of records [vu, kind, a, b, c] posted since the last take;
 *                     it runs no code of the scenario's
 *   post(vu, kind, a, b, c)   how an entry posts a record (primitives only)
 * Records cross both ways copied (structured clone), not as JSON: JSON would escape the JSON
 * texts they carry, and measured slower both ways.
 *
 * BOOTSTRAP_SOURCE runs in each virtual user's context. It is evaluated as a closure: its host
 * handles arrive only as the closure's arguments, never on the global, and the API it builds
 * wraps them in plain functions, so user code can reach neither the handles nor any Reference or
 * ExternalCopy, nor the hub. Arguments:
 *   $0 post          the hub's post
 *   $1 call(op, args)  host operation answered at once (check, vars, feed, jsonpath, html)
 *   $2 factory(api)  the bundled scenario (ScriptPlan.code), run once here
 *   $3 vu            the virtual user's number
 *   $4 data          setup()'s data as JSON text (undefined when there is none): each iteration
 *                    gets its own copy
 *   $5 sharedTables  the data files' records, the hub's views of them (shared-data-source.ts)
 *   $6 web(op, …)    the web globals' host calls (sandbox/web-host.ts)
 *   $7 envJson       the scenario's environment as JSON text (sandbox/scenario-env.ts)
 * The metric classes (sandbox/metric-classes.ts) may be constructed only while the scenario's
 * top level runs (init), as k6 requires; their add() is the host operation 'metric'.
 * Before anything else it deletes the globals a scenario must not see (removed-globals.ts).
 * It returns entry(kind, a, b, c, d, e, f, g, h), which takes the records the host sends:
 *   RUN      (a token, b iteration, c exec)  runs an iteration of the export named c (the
 *            default export when c is ''); the calls of earlier ones still waiting are forgotten:
 *            the host settles only the calls of the entry running
 *   OK       (a id, b JSON text or '' for undefined)  a host operation settled
 *   RESPONSE (a id, b status, c fields, d text, e error, f duration, g events, h first event)
 *            an http call settled, in ten values where the others take five: the final url
 *            (after redirects), then the raw header names and values (c of them), each followed
 *            by "\n", then the body, as one text (d); the error kind, '' for none (e); the
 *            duration in ms (f); a streamed call's events or chunks (g, -1 when it was no stream)
 *            and its time to the first one in ms (h, -1 when none came). Only the status is read
 *            at once: the rest is parsed when the script reads it (building every response as
 *            JSON cost about a sixth of a scripted request)
 *   FAILED   (a id, b message)       a host operation was refused: the call throws
 *   SETUP    (a token)               runs setup()
 *   TEARDOWN (a token)               runs teardown(data)
 *   EVENT    (a id, b type, c payload)  an event of a ws.connect() socket still open (a frame:
 *            b its seq, c its text or an ArrayBuffer; or b 'open', 'close' (c code), 'error'
 *            (c kind), 'timer' (c timer id))
 * and posts:
 *   START  (a id, b op, c arguments as JSON text)  a host operation that settles later
 *   END    (a token, b result as JSON text)  an iteration ended ('' when it did not throw, else
 *          { name, message, stack }); setup() ended ({ ok, data } or { ok: false, error });
 *          teardown() ended ({ ok } or { ok: false, error })
 *   LOG    (a level, b text)  a console call (console-source.ts); at most MAX_LOGS_PER_TAKE a
 *          take, past them one LOG record (a '', c how many were dropped) counts the rest
 */
import { METRIC_CLASSES_SOURCE } from '../../sandbox/metric-classes.js';
import { REMOVE_GLOBALS_SOURCE } from '../../sandbox/removed-globals.js';
import { SHARED_DATA_SOURCE } from './shared-data-source.js';
import { consoleSource } from './console-source.js';
import { ENV_SOURCE } from '../../sandbox/scenario-env.js';
import { WEB_GLOBALS_SOURCE } from '../../sandbox/web-globals.js';
import { MAX_WAITING_CALLS, WAITING_REFUSED } from './waiting-calls.js';

/**
 * Kinds of records: host → isolate (RUN, OK, RESPONSE, FAILED, SETUP, EVENT, TEARDOWN), isolate →
 * host (START, END, LOG). Records are five values wide, [vu, kind, a, b, c], but RESPONSE: ten,
 * [vu, kind, a, b, c, d, e, f, g, h].
 */
export const RECORD = {
  RUN: 0,
  OK: 1,
  RESPONSE: 2,
  FAILED: 3,
  SETUP: 4,
  EVENT: 5,
  TEARDOWN: 6,
  START: 0,
  END: 1,
  LOG: 2,
} as const;
/** LOG records a take() carries at most; past them the hub counts them in one record (a, b ''). */
const MAX_LOGS_PER_TAKE = 200;
/** Values in a record (isolate → host: always). */
export const RECORD_WIDTH = 5;
/** Values in a RESPONSE record. */
const RESPONSE_WIDTH = 10;

/** Values in a host → isolate record of this kind. */
export function inboundWidth(kind: number): number {
  return kind === RECORD.RESPONSE ? RESPONSE_WIDTH : RECORD_WIDTH;
}

/** The hub's closure (see the file comment). */
export const HUB_SOURCE = `
'use strict';
const entries = new Map();
let out = [];
let logs = 0;
let dropped = 0;
const post = (vu, kind, a, b, c) => {
  if (kind === ${RECORD.LOG} && logs++ >= ${MAX_LOGS_PER_TAKE}) dropped++;
  else out.push(vu, kind, a, b, c);
};
const add = (vu, entry) => {
  entries.set(vu, entry);
};
const pump = (records) => {
  for (let i = 0; i < records.length; ) {
    const kind = records[i + 1];
    const entry = entries.get(records[i]);
    try {
      if (entry !== undefined && kind === ${RECORD.RESPONSE})
        entry(kind, records[i + 2], records[i + 3], records[i + 4], records[i + 5], records[i + 6], records[i + 7], records[i + 8], records[i + 9]);
      else if (entry !== undefined) entry(kind, records[i + 2], records[i + 3], records[i + 4]);
    } catch {}
    i += kind === ${RECORD.RESPONSE} ? ${RESPONSE_WIDTH} : ${RECORD_WIDTH};
  }
};
const take = () => {
  if (dropped > 0) out.push(0, ${RECORD.LOG}, '', '', dropped);
  logs = 0;
  dropped = 0;
  const taken = out;
  out = [];
  return taken;
};
return [add, pump, take, post];
`;

/** A virtual user's closure (see the file comment). */
export const BOOTSTRAP_SOURCE = `
'use strict';
${REMOVE_GLOBALS_SOURCE}
const post = $0;
const call = $1;
const factory = $2;
const vuNumber = $3;
globalThis.__VU = vuNumber + 1;
globalThis.__ITER = 0;
const dataJson = $4;
const sharedTables = $5;
${consoleSource(RECORD.LOG)}
// Taken before the scenario's code runs: what the scenario does to its JSON global is its own.
const { stringify, parse } = JSON;
const NativeRegExp = RegExp;
const isRegExp = (value) => value instanceof NativeRegExp;
// The web globals (URL, TextEncoder, crypto…) and the user's named variables (env, __ENV).
const web = $6;
const envJson = $7;
const barrageCrypto = ${WEB_GLOBALS_SOURCE};
const env = ${ENV_SOURCE};
const pending = new Map();
let nextId = 0;
const groups = [];
// True while the scenario's top level runs: metrics are declared there only.
let initializing = true;
const metricDeclared = (name, kind) => {
  if (!initializing)
    throw new Error('a ' + kind + ' metric (' + name + ') must be declared at the top level of the scenario, not inside an iteration, setup() or a function they call (as in k6)');
};
const metricAdd = (name, kind, value, tags) => {
  if (initializing)
    throw new Error(name + '.add(): samples are added inside an iteration, not at the top level of the scenario');
  call('metric', [name, value, tagsOf(tags), groupName()]);
};
${METRIC_CLASSES_SOURCE}
${SHARED_DATA_SOURCE}
class Refusal {
  constructor(message) {
    this.message = message;
  }
}
// The executor of every wait's promise: it hands the resolve function over, so that no closure
// is made per call.
let captured;
const capture = (resolve) => {
  captured = resolve;
};
// A host operation that settles later; its arguments go as JSON text.
const wait = (op, json) => {
  const promise = new Promise(capture);
  const id = ++nextId;
  pending.set(id, captured);
  post(vuNumber, ${RECORD.START}, id, op, json);
  return promise;
};
// Called by the async functions that await wait(): a refusal thrown here carries the scenario's
// own frames (V8's async stack traces), so its line is known without capturing a stack per call.
const settled = (value) => {
  if (value instanceof Refusal) throw new Error(value.message);
  return value;
};
const settle = (id, value) => {
  const resolve = pending.get(id);
  if (resolve === undefined) return;
  pending.delete(id);
  resolve(value);
};
// An element html() found, from the host's [text, [name, value, …]]: attribute names are lower
// case (the parser made them so), looked up in any case; no prototype, so "__proto__" is a name.
const htmlElement = (text, list) => {
  const attributes = Object.create(null);
  for (let i = 0; i + 1 < list.length; i += 2) attributes[list[i]] = list[i + 1];
  return Object.freeze({
    text,
    attr: (name) => attributes[textOf(name).toLowerCase()],
  });
};
// The group a call is made in (nested groups joined by " › "), its tag on the call's samples.
const groupName = () => (groups.length === 0 ? undefined : groups.join(' › '));
// This virtual user's own tags (\`vu.tags\`, as k6's exec.vu.tags), on all its samples.
const vuTags = Object.create(null);
const hasVuTags = () => {
  for (const _ in vuTags) return true;
  return false;
};
// The VU's tags, then a call's \`tags\` option over them, as text values (the host checks the keys).
const tagsOf = (tags) => {
  const own = tags !== undefined && tags !== null && typeof tags === 'object';
  if (!own && !hasVuTags()) return undefined;
  const out = Object.create(null);
  for (const [k, v] of Object.entries(vuTags)) out[textOf(k)] = textOf(v);
  if (own) for (const [k, v] of Object.entries(tags)) out[textOf(k)] = textOf(v);
  return out;
};
const textOf = (value) => (typeof value === 'string' ? value : String(value));
// A response: its status at once; its url, headers, body, error and timings built from the host's
// text when first read. A streamed call's events (or chunks) and time to the first are numbers the
// host gave (-1: no stream, none came). The text starts with the final url (after redirects) and a "\\n"; header
// names and values alternate after it, each followed by a "\\n"
// (a header cannot hold one), and the body is the rest. Names are made lower case, and repeated
// names joined by ", ". The fields are getters; toJSON gives them all to JSON.stringify.
class Response {
  #status;
  #fields;
  #text;
  #error;
  #duration;
  #events;
  #firstEvent;
  #rest = undefined;
  constructor(status, fields, text, error, duration, events, firstEvent) {
    this.#status = status;
    this.#fields = fields;
    this.#text = text;
    this.#error = error;
    this.#duration = duration;
    this.#events = events;
    this.#firstEvent = firstEvent;
  }
  #read() {
    if (this.#rest === undefined) {
      const text = this.#text;
      // No prototype: a header named __proto__ stays a plain key.
      const headers = Object.create(null);
      const urlEnd = text.indexOf('\\n');
      let at = urlEnd + 1;
      for (let i = 0; i + 1 < this.#fields; i += 2) {
        const nameEnd = text.indexOf('\\n', at);
        const valueEnd = text.indexOf('\\n', nameEnd + 1);
        const name = text.slice(at, nameEnd).toLowerCase();
        const value = text.slice(nameEnd + 1, valueEnd);
        headers[name] = headers[name] === undefined ? value : headers[name] + ', ' + value;
        at = valueEnd + 1;
      }
      this.#rest = Object.freeze({
        url: text.slice(0, urlEnd),
        headers: Object.freeze(headers),
        body: text.slice(at),
        error: this.#error === '' ? undefined : this.#error,
        timings: Object.freeze(
          this.#events < 0 || this.#firstEvent < 0
            ? { duration: this.#duration }
            : { duration: this.#duration, firstEvent: this.#firstEvent },
        ),
      });
    }
    return this.#rest;
  }
  get status() {
    return this.#status;
  }
  get url() {
    return this.#read().url;
  }
  get headers() {
    return this.#read().headers;
  }
  get body() {
    return this.#read().body;
  }
  get error() {
    return this.#read().error;
  }
  get timings() {
    return this.#read().timings;
  }
  get events() {
    return this.#events < 0 ? undefined : this.#events;
  }
  json(path) {
    if (path === undefined) return parse(this.body);
    return call('jsonpath', [this.body, textOf(path)]);
  }
  html(selector) {
    const found = call('html', [this.body, textOf(selector)]);
    return found === null ? null : htmlElement(found[0], found[1]);
  }
  match(pattern) {
    let regex;
    try {
      regex = isRegExp(pattern)
        ? new NativeRegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''))
        : new NativeRegExp(textOf(pattern));
    } catch (error) {
      throw new Error('match(): ' + textOf(error.message));
    }
    const found = regex.exec(this.body);
    if (found === null) return undefined;
    return found.length > 1 ? found[1] : found[0];
  }
  toJSON() {
    return { status: this.#status, ...this.#read(), events: this.events };
  }
}
Object.freeze(Response.prototype);
// The arguments of calls with no body, options or group, as JSON text, by method and url: a
// scenario repeats its calls, and their text is built once (for up to MAX_PLAIN urls a method).
const plain = new Map();
const MAX_PLAIN = 1000;
// query and form as [name, value] pairs: a list value repeats its name.
const pairs = (value) => {
  const out = [];
  if (value !== undefined && value !== null)
    for (const [name, item] of Object.entries(value))
      for (const one of Array.isArray(item) ? item : [item]) out.push([textOf(name), textOf(one)]);
  return out;
};
// multipart: a string is a field, { data, filename?, contentType? } a file.
const parts = (value) =>
  Object.entries(value).map(([name, item]) =>
    item !== null && typeof item === 'object'
      ? {
          name: textOf(name),
          data: textOf(item.data),
          file: true,
          filename: item.filename === undefined ? undefined : textOf(item.filename),
          contentType: item.contentType === undefined ? undefined : textOf(item.contentType),
        }
      : { name: textOf(name), data: textOf(item), file: false },
  );
const requestArgs = (method, url, body, opts) => {
  const simple =
    body === undefined && opts === undefined && groups.length === 0 && !hasVuTags() && typeof url === 'string';
  if (simple) {
    const known = plain.get(method)?.get(url);
    if (known !== undefined) return known;
  }
  const o = opts === undefined || opts === null ? {} : opts;
  const headers = {};
  if (o.headers !== undefined)
    for (const [k, v] of Object.entries(o.headers)) headers[textOf(k)] = textOf(v);
  const form = o.form === undefined || o.form === null ? undefined : pairs(o.form);
  const multipart = o.multipart === undefined || o.multipart === null ? undefined : parts(o.multipart);
  const given = [body !== undefined && body !== null ? 'a body' : '', form ? 'form' : '', multipart ? 'multipart' : ''];
  if (given.filter((g) => g !== '').length > 1)
    throw new Error(method + ' ' + textOf(url) + ': give one of a body, form or multipart, not ' + given.filter((g) => g !== '').join(' and '));
  const isText = body === undefined || body === null || typeof body === 'string';
  const json = stringify({
    method,
    url: textOf(url),
    body: isText ? (body === null ? undefined : body) : stringify(body),
    json: !isText,
    query: pairs(o.query),
    form,
    multipart,
    headers,
    timeout: typeof o.timeout === 'number' ? o.timeout : undefined,
    redirects: typeof o.redirects === 'number' ? o.redirects : undefined,
    expect: o.expect,
    stream: o.stream,
    idleTimeout: typeof o.idleTimeout === 'number' ? o.idleTimeout : undefined,
    name: o.name === undefined ? undefined : textOf(o.name),
    group: groupName(),
    tags: tagsOf(o.tags),
  });
  if (simple) {
    let urls = plain.get(method);
    if (urls === undefined) plain.set(method, (urls = new Map()));
    if (urls.size < MAX_PLAIN) urls.set(url, json);
  }
  return json;
};
// The calls a virtual user may have waiting (waiting-calls.ts): one past them throws where it is
// made, at once, so that a loop of calls no one awaits ends there.
const room = (op) => {
  if (pending.size >= ${MAX_WAITING_CALLS}) throw new Error(op + ': ' + ${JSON.stringify(WAITING_REFUSED)});
};
const requested = async (method, url, body, opts) =>
  settled(await wait('http', requestArgs(method, url, body, opts)));
const request = (method, url, body, opts) => {
  room('http');
  return requested(method, url, body, opts);
};
// http.batch(): one host call carrying every request's arguments, one JSON text a line (JSON text
// holds no raw line break), so that the host keys each by the text a single call would send; it
// settles with each response as [status, fields, text, error, duration, events, first event], in
// order.
const batchArgs = (entry) => {
  if (typeof entry === 'string') return requestArgs('GET', entry, undefined, undefined);
  if (Array.isArray(entry))
    return requestArgs(textOf(entry[0] ?? 'GET').toUpperCase(), entry[1], entry[2], entry[3]);
  if (entry !== null && typeof entry === 'object')
    return requestArgs(textOf(entry.method ?? 'GET').toUpperCase(), entry.url, entry.body, entry.params);
  throw new TypeError('http.batch(): each request is a url, [method, url, body?, params?] or { method, url, body?, params? }');
};
const batched = async (json) =>
  settled(await wait('http.batch', json)).map((r) => Object.freeze(new Response(r[0], r[1], r[2], r[3], r[4], r[5], r[6])));
const batch = (requests) => {
  if (!Array.isArray(requests)) throw new TypeError('http.batch(): an array of requests');
  if (requests.length > ${MAX_WAITING_CALLS})
    throw new RangeError('http.batch(): at most ${MAX_WAITING_CALLS} requests, got ' + requests.length);
  room('http');
  return batched(requests.map(batchArgs).join('\\n'));
};
const slept = async (seconds) => settled(await wait('sleep', stringify(Number(seconds))));
const session = async (url, opts) => {
  const o = opts === undefined || opts === null ? {} : opts;
  const list = (value) => (Array.isArray(value) ? value.map(textOf) : []);
  const result = await wait('ws', stringify({
    url: textOf(url),
    messages: list(o.messages),
    interval: typeof o.interval === 'number' ? o.interval : 0,
    subprotocols: list(o.subprotocols),
    timeout: typeof o.timeout === 'number' ? o.timeout : undefined,
    name: o.name === undefined ? undefined : textOf(o.name),
    group: groupName(),
    tags: tagsOf(o.tags),
  }));
  return settled(result);
};
// ws.connect(): this virtual user's sockets not ended, by their call's id. A socket's events
// come in order as EVENT records; its methods are host calls (send, close, timers) answered at once.
const sockets = new Map();
const SOCKET_EVENTS = ['open', 'message', 'binaryMessage', 'close', 'error'];
const bytesOf = (data) => {
  if (data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data)) return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  throw new TypeError('sendBinary(): an ArrayBuffer or a typed array');
};
const makeSocket = (id) => {
  const handlers = { open: [], message: [], binaryMessage: [], close: [], error: [] };
  const timers = new Map();
  const waiters = new Set();
  let nextTimer = 0;
  let seen = 0;
  let failure;
  const fail = (error) => {
    if (failure !== undefined) return;
    failure = error;
    call('ws.close', [id, 1011, '']);
  };
  const run = (fn, args) => {
    if (failure !== undefined) return;
    try {
      fn(...args);
    } catch (error) {
      fail(error);
    }
  };
  const emit = (type, args) => {
    for (const fn of handlers[type]) run(fn, args);
  };
  const timer = (fn, ms, repeat) => {
    if (typeof fn !== 'function') throw new TypeError('a timer needs a function');
    const t = ++nextTimer;
    call('ws.timer', [id, t, Number(ms) || 0, repeat]);
    timers.set(t, { fn, repeat });
    return t;
  };
  const clear = (t) => {
    if (timers.delete(t)) call('ws.clearTimer', [id, t]);
  };
  const waitFor = (after, match, mark, opts, what) =>
    new Promise((resolve) => {
      const waiter = { after, match, mark, resolve, timer: 0 };
      const ms = opts !== undefined && opts !== null && typeof opts.timeout === 'number' ? opts.timeout : -1;
      waiter.timer = timer(() => {
        waiters.delete(waiter);
        call('ws.timedOut', [id, what]);
        resolve(undefined);
      }, ms, false);
      waiters.add(waiter);
    });
  const frame = (seq, data) => {
    seen = seq;
    for (const waiter of waiters) {
      if (seq <= waiter.after) continue;
      let hit = false;
      try {
        hit = waiter.match === undefined || Boolean(waiter.match(data));
      } catch (error) {
        fail(error);
      }
      if (!hit) continue;
      waiters.delete(waiter);
      clear(waiter.timer);
      call('ws.taken', [id, waiter.mark, seq]);
      waiter.resolve(data);
    }
    emit(typeof data === 'string' ? 'message' : 'binaryMessage', [data]);
  };
  const api = Object.freeze({
    on: (event, fn) => {
      const list = handlers[textOf(event)];
      if (list === undefined) throw new TypeError('socket.on(): one of ' + SOCKET_EVENTS.join(', '));
      if (typeof fn !== 'function') throw new TypeError('socket.on(): a handler function');
      list.push(fn);
    },
    send: (text) => {
      call('ws.send', [id, textOf(text)]);
    },
    sendBinary: (data) => {
      call('ws.send', [id, bytesOf(data)]);
    },
    request: (data, match, opts) => {
      const [mark, after] = call('ws.send', [id, typeof data === 'string' ? data : bytesOf(data)]);
      return waitFor(after, match, mark, opts, 'request()');
    },
    receive: (match, opts) => waitFor(seen, match, 0, opts, 'receive()'),
    close: (code, reason) => {
      call('ws.close', [id, code === undefined ? 1000 : Number(code), reason === undefined ? '' : textOf(reason)]);
    },
    setTimeout: (fn, ms) => timer(fn, ms, false),
    setInterval: (fn, ms) => timer(fn, ms, true),
    clearTimeout: clear,
    clearInterval: clear,
  });
  const event = (type, payload) => {
    if (typeof type === 'number') frame(type, payload);
    else if (type === 'open') emit('open', []);
    else if (type === 'timer') {
      const t = timers.get(payload);
      if (t === undefined) return;
      if (!t.repeat) timers.delete(payload);
      run(t.fn, []);
    } else if (type === 'error') emit('error', [payload]);
    else if (type === 'close') {
      for (const waiter of waiters) waiter.resolve(undefined);
      waiters.clear();
      timers.clear();
      emit('close', [payload]);
    }
  };
  return { api, event, fail, failure: () => failure };
};
const connected = async (promise, id, socket) => {
  try {
    const result = settled(await promise);
    const failure = socket.failure();
    if (failure !== undefined) throw failure;
    return Object.freeze({ ...result, headers: Object.freeze(result.headers) });
  } finally {
    sockets.delete(id);
  }
};
const connect = (url, opts, handler) => {
  room('ws');
  const o = opts === undefined || opts === null ? {} : opts;
  const headers = {};
  if (o.headers !== undefined && o.headers !== null)
    for (const [k, v] of Object.entries(o.headers)) headers[textOf(k)] = textOf(v);
  const id = ++nextId;
  call('ws.open', [id, stringify({
    url: textOf(url),
    headers,
    subprotocols: Array.isArray(o.subprotocols) ? o.subprotocols.map(textOf) : [],
    timeout: typeof o.timeout === 'number' ? o.timeout : undefined,
    name: o.name === undefined ? undefined : textOf(o.name),
    group: groupName(),
    tags: tagsOf(o.tags),
  })]);
  const promise = new Promise(capture);
  pending.set(id, captured);
  const socket = makeSocket(id);
  sockets.set(id, socket);
  post(vuNumber, ${RECORD.START}, id, 'ws.connect', String(id));
  if (typeof handler === 'function') {
    try {
      handler(socket.api);
    } catch (error) {
      socket.fail(error);
    }
  }
  return connected(promise, id, socket);
};
// The virtual user's cookie jar (k6's http.cookieJar()): the same jar its requests use.
const jar = Object.freeze({
  cookiesForURL: (url) => call('cookies.get', textOf(url)),
  set: (url, name, value) => {
    call('cookies.set', [textOf(url), textOf(name), textOf(value)]);
  },
  clear: () => {
    call('cookies.clear', null);
  },
});
const api = Object.freeze({
  vu: Object.freeze({ id: vuNumber, tags: vuTags }),
  http: Object.freeze({
    get: (url, opts) => request('GET', url, undefined, opts),
    del: (url, opts) => request('DELETE', url, undefined, opts),
    post: (url, body, opts) => request('POST', url, body, opts),
    put: (url, body, opts) => request('PUT', url, body, opts),
    patch: (url, body, opts) => request('PATCH', url, body, opts),
    request: (method, url, body, opts) => request(textOf(method).toUpperCase(), url, body, opts),
    cookieJar: () => jar,
    batch,
  }),
  ws: Object.freeze({
    session: (url, opts) => {
      room('ws');
      return session(url, opts);
    },
    connect,
  }),
  check: (value, predicates, tags) => {
    const group = groupName();
    const own = tagsOf(tags);
    let all = true;
    for (const [name, predicate] of Object.entries(predicates)) {
      let pass = false;
      try {
        pass = Boolean(predicate(value));
      } catch {
        pass = false;
      }
      call('check', [name, pass, group, own]);
      all = all && pass;
    }
    return all;
  },
  sleep: (seconds) => {
    room('sleep');
    return slept(seconds);
  },
  group: async (name, fn) => {
    groups.push(textOf(name));
    try {
      return await fn();
    } finally {
      groups.pop();
    }
  },
  vars: Object.freeze({
    get: (key) => call('vars.get', textOf(key)),
    // A value that is not a string is stored as its JSON text, typed: a JSON body of a YAML
    // endpoint sends it as that type.
    set: (key, value) => {
      const json = typeof value === 'string' ? undefined : stringify(value);
      if (json === undefined) call('vars.set', [textOf(key), textOf(value), false]);
      else call('vars.set', [textOf(key), json, true]);
    },
  }),
  feed: () => call('feed', null),
  data: sharedData,
  env,
  crypto: barrageCrypto,
  ...metricClasses,
});
const scenario = factory(api);
initializing = false;
const describe = (error) => {
  try {
    if (error instanceof Error)
      return { name: textOf(error.name), message: textOf(error.message), stack: textOf(error.stack) };
    return { name: 'Error', message: 'a thrown ' + typeof error + ': ' + textOf(error), stack: '' };
  } catch {
    return { name: 'Error', message: 'an error that cannot be described', stack: '' };
  }
};
const end = (token, json) => post(vuNumber, ${RECORD.END}, token, json, 0);
// An iteration, which posts its own END record.
const runIteration = async (token, iteration, exec, data) => {
  let json = '';
  try {
    const fn = exec === '' ? scenario.default : scenario[exec];
    if (typeof fn !== 'function')
      throw new TypeError(
        exec === ''
          ? 'the scenario has no default export function'
          : 'the scenario exports no function ' + exec + ' (the exec of a scenario)',
      );
    // k6's names: __VU is 1-based, __ITER counts this virtual user's iterations from 0.
    globalThis.__ITER = iteration - 1;
    await fn({ id: vuNumber, iteration }, data);
  } catch (error) {
    json = stringify(describe(error));
  }
  end(token, json);
};
const setupEntry = async () => {
  globalThis.__VU = 0;
  if (typeof scenario.setup !== 'function') return stringify({ ok: true });
  try {
    return stringify({ ok: true, data: await scenario.setup() });
  } catch (error) {
    return stringify({ ok: false, error: describe(error) });
  }
};
const teardownEntry = async () => {
  globalThis.__VU = 0;
  if (typeof scenario.teardown !== 'function') return stringify({ ok: true });
  try {
    await scenario.teardown(dataJson === undefined ? undefined : parse(dataJson));
    return stringify({ ok: true });
  } catch (error) {
    return stringify({ ok: false, error: describe(error) });
  }
};
// Scenario code starts in a job of this context's own, never inside the hub's call: V8 lets
// eval and the Function constructor work only when the context entered last is the caller's
// own, and the hub's pump is entered from the host (later continuations run as jobs already).
const started = Promise.resolve();
// Iterations to start, as [token, iteration, exec] triples: no closure is made per iteration.
const runs = [];
const runNext = () => {
  const token = runs.shift();
  const iteration = runs.shift();
  const exec = runs.shift();
  runIteration(token, iteration, exec, dataJson === undefined ? undefined : parse(dataJson));
};
return (kind, a, b, c, d, e, f, g, h) => {
  if (kind === ${RECORD.RUN}) {
    // The calls of earlier iterations still waiting will not settle: the host drops them (and
    // closes their sockets).
    pending.clear();
    sockets.clear();
    runs.push(a, b, c);
    started.then(runNext);
  } else if (kind === ${RECORD.RESPONSE}) settle(a, Object.freeze(new Response(b, c, d, e, f, g, h)));
  else if (kind === ${RECORD.OK}) settle(a, b === '' ? undefined : parse(b));
  else if (kind === ${RECORD.FAILED}) settle(a, new Refusal(b));
  else if (kind === ${RECORD.EVENT}) sockets.get(a)?.event(b, c);
  else if (kind === ${RECORD.SETUP})
    started.then(setupEntry).then((json) => end(a, json));
  else if (kind === ${RECORD.TEARDOWN})
    started.then(teardownEntry).then((json) => end(a, json));
};
`;
