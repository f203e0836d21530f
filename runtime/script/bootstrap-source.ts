/**
 * The bootstrap that runs in each virtual user's context (DESIGN.md §9). It is evaluated as a
 * closure: its host handles arrive only as the closure's arguments, never on the global, and the
 * API it builds wraps them in plain functions, so user code can reach neither the handles nor any
 * Reference or ExternalCopy. Arguments:
 *   $0 start(id, op, json)   host operation that settles later (http, sleep), its arguments as
 *                            JSON text: the host calls settle(id, ok, value) when it is done,
 *                            value being JSON text when ok (or undefined), else a message
 *   $1 call(op, args)        host operation answered at once (check, vars, feed, jsonpath)
 *   $2 end(token, result)    an entry started by run or setup has finished
 *   $3 factory(api)          the bundled scenario (ScriptPlan.code), run once here
 * It returns [run, settle, setup], which the host keeps as References (host side only) and calls
 * synchronously (a synchronous call costs a fraction of an asynchronous one, which hops threads).
 * Values cross as primitives and JSON text: copying an object across costs more than its JSON.
 * run(token, id, iteration, data) ends with end(token, null), or end(token, { name, message, stack }) when
 * the iteration threw; setup(token) with end(token, { ok, data } or { ok: false, error }).
 */
export const BOOTSTRAP_SOURCE = `
'use strict';
const start = $0;
const call = $1;
const end = $2;
const factory = $3;
const pending = new Map();
let nextId = 0;
const groups = [];
const later = (op, args) =>
  new Promise((resolve, reject) => {
    const id = ++nextId;
    // The call site, so that a refused call names the line of the scenario that made it.
    const site = new Error(op);
    pending.set(id, { resolve, reject, site });
    start(id, op, JSON.stringify(args));
  });
const settle = (id, ok, value) => {
  const waiting = pending.get(id);
  if (waiting === undefined) return;
  pending.delete(id);
  if (ok) return waiting.resolve(value === undefined ? undefined : JSON.parse(value));
  const error = new Error(value);
  error.stack = 'Error: ' + value + String(waiting.site.stack).slice(String(waiting.site.stack).indexOf('\\n'));
  waiting.reject(error);
};
const prefix = (name) => (groups.length === 0 ? name : groups.join(' › ') + ' › ' + name);
const textOf = (value) => (typeof value === 'string' ? value : String(value));
const response = (r) =>
  Object.freeze({
    status: r.status,
    headers: Object.freeze(r.headers),
    body: r.body,
    error: r.error,
    timings: Object.freeze(r.timings),
    json(path) {
      if (path === undefined) return JSON.parse(r.body);
      return call('jsonpath', [r.body, textOf(path)]);
    },
  });
const request = (method, url, body, opts) => {
  const o = opts === undefined || opts === null ? {} : opts;
  const headers = {};
  for (const [k, v] of Object.entries(o.headers === undefined ? {} : o.headers))
    headers[textOf(k)] = textOf(v);
  const isText = body === undefined || body === null || typeof body === 'string';
  return later('http', {
    method: textOf(method).toUpperCase(),
    url: textOf(url),
    body: isText ? (body === null ? undefined : body) : JSON.stringify(body),
    json: !isText,
    headers,
    timeout: typeof o.timeout === 'number' ? o.timeout : undefined,
    name: o.name === undefined ? undefined : prefix(textOf(o.name)),
    group: groups.length === 0 ? undefined : groups.join(' › '),
  }).then(response);
};
const api = Object.freeze({
  http: Object.freeze({
    get: (url, opts) => request('GET', url, undefined, opts),
    del: (url, opts) => request('DELETE', url, undefined, opts),
    post: (url, body, opts) => request('POST', url, body, opts),
    put: (url, body, opts) => request('PUT', url, body, opts),
    patch: (url, body, opts) => request('PATCH', url, body, opts),
    request: (method, url, body, opts) => request(method, url, body, opts),
  }),
  ws: Object.freeze({
    session: (url, opts) => {
      const o = opts === undefined || opts === null ? {} : opts;
      const list = (value) => (Array.isArray(value) ? value.map(textOf) : []);
      return later('ws', {
        url: textOf(url),
        messages: list(o.messages),
        interval: typeof o.interval === 'number' ? o.interval : 0,
        subprotocols: list(o.subprotocols),
        timeout: typeof o.timeout === 'number' ? o.timeout : undefined,
        name: o.name === undefined ? undefined : prefix(textOf(o.name)),
      });
    },
  }),
  check: (value, predicates) => {
    let all = true;
    for (const [name, predicate] of Object.entries(predicates)) {
      let pass = false;
      try {
        pass = Boolean(predicate(value));
      } catch {
        pass = false;
      }
      call('check', [prefix(name), pass]);
      all = all && pass;
    }
    return all;
  },
  sleep: (seconds) => later('sleep', Number(seconds)),
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
    set: (key, value) => {
      call('vars.set', [textOf(key), textOf(value)]);
    },
  }),
  feed: () => call('feed', null),
});
const scenario = factory(api);
const describe = (error) => {
  try {
    if (error instanceof Error)
      return { name: textOf(error.name), message: textOf(error.message), stack: textOf(error.stack) };
    return { name: 'Error', message: 'a thrown ' + typeof error + ': ' + textOf(error), stack: '' };
  } catch {
    return { name: 'Error', message: 'an error that cannot be described', stack: '' };
  }
};
const runIteration = async (vu, data) => {
  try {
    if (typeof scenario.default !== 'function')
      throw new TypeError('the scenario has no default export function');
    await scenario.default(vu, data);
    return null;
  } catch (error) {
    return describe(error);
  }
};
const setupEntry = async () => {
  if (typeof scenario.setup !== 'function') return { ok: true, data: undefined };
  try {
    return { ok: true, data: await scenario.setup() };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
};
const run = (token, id, iteration, data) => {
  runIteration({ id, iteration }, data).then((result) => end(token, result));
};
const setup = (token) => {
  setupEntry().then((result) => end(token, result));
};
return [run, settle, setup];
`;
