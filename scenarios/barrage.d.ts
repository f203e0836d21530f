/**
 * Typings of barrage's scenario API (docs/scenarios.md). Scenario files import from 'barrage';
 * add this file to your editor's project (a `/// <reference path="barrage.d.ts" />` line, or
 * tsconfig `include`) to get completion and checks.
 */
/** k6's names: the virtual user's number from 1 (0 in setup() and teardown()). */
declare const __VU: number;
/** k6's names: this virtual user's iterations before this one (0 in its first). */
declare const __ITER: number;

declare module 'barrage' {
  /** Options of one request. */
  export interface RequestOptions {
    /** Request headers; they replace top-level `headers` of the same name. */
    headers?: Record<string, string>;
    /**
     * Cookies of this request only (k6's params.cookies), sent after a Cookie header of its own
     * and before the jar's of other names: one here wins over the jar's; not stored in the jar.
     */
    cookies?: Record<string, string | { value: string }>;
    /** Deadline of this request in milliseconds (default: the run's `timeout`). */
    timeout?: number;
    /**
     * Name of the request in per-endpoint stats (default: `METHOD /path`); a `group()` does not
     * change it, but tags its samples with `group`.
     */
    name?: string;
    /**
     * Your own tags on this request's samples (keys other than barrage's: endpoint, method,
     * status, scenario, group, check, expected_response, error_kind); thresholds can filter on
     * them: `http_req_duration{page=cart}:p95 < 300`.
     */
    tags?: Record<string, string | number | boolean>;
    /** Redirects followed (default: the run's `max_redirects`, 10); 0 returns the 3xx itself. */
    redirects?: number;
    /**
     * Statuses that are a success (default: the run's `expect`, else any status below 400); a
     * response outside them fails as `unexpected_status`: `{ status: [200, 404] }`.
     */
    expect?: { status: StatusEntry | StatusEntry[] };
    /**
     * Read the response as it arrives (docs/scenarios.md, Streamed responses): `'sse'` event by
     * event (sse_* metrics; `body` is then the last event's data), `'chunks'` chunk by chunk
     * (stream_* metrics; `body` as usual). `events` and `timings.firstEvent` tell what came.
     */
    stream?: 'sse' | 'chunks';
    /** With `stream`: fail as `idle_timeout` when no event or chunk comes for this many ms. */
    idleTimeout?: number;
    /**
     * An LLM inference call (docs/llm.md): its tokens timed and counted (llm_* metrics), from
     * its `stream: 'sse'` events or from its whole response's usage. A preset's name, or a
     * layout of your own; with it, `body` of a stream is the event that held the usage.
     */
    llm?: LlmApi | LlmOptions;
    /**
     * Query parameters appended to the url's own query (form-encoded: space → +); a list value
     * repeats the name.
     */
    query?: Record<string, FormValue | FormValue[]>;
    /**
     * Fields sent as `application/x-www-form-urlencoded` (content-type set unless a header
     * sets one); a list value repeats the name. Give no body argument with it.
     */
    form?: Record<string, FormValue | FormValue[]>;
    /**
     * Fields and files sent as `multipart/form-data` (its content-type, with the boundary, is
     * set). A file's data is text (sent as UTF-8) or bytes, sent as they are (import a file
     * `with { type: 'bytes' }`); bytes alone are a file named "blob". A list value repeats the
     * name, one part an item. Give no body argument with it.
     */
    multipart?: Record<string, MultipartValue | readonly MultipartValue[]>;
  }

  /** The APIs whose token layout barrage knows. */
  export type LlmApi = 'openai-chat' | 'openai-completions' | 'anthropic-messages';

  /** An LLM call's layout: JSONPaths of names and indices (`$.choices[0].delta.content`). */
  export interface LlmOptions {
    /** The preset the paths below override. */
    api?: LlmApi;
    /** Where an event (or a whole response) carries output text; needed without `api`. */
    output?: string;
    /** Where the usage counts input tokens. */
    inputTokens?: string;
    /** Where the usage counts output tokens. */
    outputTokens?: string;
    /** The data or event name that ends the stream (`[DONE]`, `message_stop`). */
    end?: string;
    /** SLOs in ms: llm_goodput is the share of calls that meet every one given. */
    goodput?: { ttft?: number; tpot?: number; e2e?: number };
  }

  /** A status (100–599), a class (`'2xx'`) or a range (`'200-299'`). */
  export type StatusEntry = number | string;

  /** A value of `query` or `form`. */
  export type FormValue = string | number | boolean;

  /** Bytes: sent as they are, the bytes a view covers (copied when the call is made). */
  export type Bytes = ArrayBuffer | ArrayBufferView;

  /** A part of `multipart`: a field (text), or a file. */
  export type MultipartValue = string | Bytes | MultipartFile;

  /** A file part of `multipart`. */
  export interface MultipartFile {
    /** The file's content: text (sent as UTF-8), or bytes sent as they are. */
    data: string | Bytes;
    /** Default: "blob". */
    filename?: string;
    /** Default: application/octet-stream. */
    contentType?: string;
  }

  /**
   * A request body: text as is; bytes (an ArrayBuffer, a typed array, a DataView) as they are
   * (no content-type set); any other value is sent as JSON (content-type set).
   */
  export type Body = string | number | boolean | null | object | undefined;

  /** A response. Network failures resolve too: status 0 and `error` set to the kind. */
  export interface Response {
    /** HTTP status; 0 when no response arrived. */
    readonly status: number;
    /** The url that answered: the last hop's when redirects were followed. */
    readonly url: string;
    /** Headers, lower-case names. */
    readonly headers: Readonly<Record<string, string>>;
    /** The body as text (at most 1 MiB kept); with `stream: 'sse'`, the last event's data. */
    readonly body: string;
    /** The failure kind (`timeout`, `refused`, `http_5xx`…) when the request failed. */
    readonly error: string | undefined;
    /**
     * Milliseconds, k6's phases of the final exchange (the last hop of the last attempt):
     * `connecting` and `tls_handshaking` of the connection it opened (0 on a reused one),
     * `waiting` its time to first byte less them (as http_req_waiting), `receiving` from its
     * headers to its end; `blocked` and `sending` are not measured and are 0. `duration` is the
     * whole call, from its first send to its final response's end (redirects, retries and a new
     * connection's set-up included; k6's is sending + waiting + receiving). With `stream`,
     * `firstEvent` from sending to the first event or chunk (as sse_time_to_first_event and
     * stream_time_to_first_chunk), absent when none came.
     */
    readonly timings: ResponseTimings;
    /** The protocol of the final response: `'HTTP/1.1'`, `'HTTP/2.0'`; `''` when none came. */
    readonly proto: 'HTTP/1.1' | 'HTTP/2.0' | '';
    /** With `stream`: the events (`'sse'`) or chunks (`'chunks'`) received; else undefined. */
    readonly events: number | undefined;
    /** The body parsed as JSON, or the first value at a JSONPath (no filter expressions). */
    json(path?: string): unknown;
    /**
     * The body parsed as HTML (leniently): the first element the CSS selector finds, or null.
     * An invalid selector throws.
     */
    html(selector: string): HtmlElement | null;
    /**
     * The first match of a regular expression in the body: its first capture group, or the
     * whole match when it has none; undefined when nothing matches. An invalid pattern throws.
     */
    match(pattern: string | RegExp): string | undefined;
  }

  /** A response's timing phases, in milliseconds (k6's names). */
  export interface ResponseTimings {
    /** Always 0: a virtual user's calls wait for no connection slot. */
    readonly blocked: number;
    readonly connecting: number;
    readonly tls_handshaking: number;
    /** Always 0: not measured (writing the request counts in `waiting`). */
    readonly sending: number;
    readonly waiting: number;
    readonly receiving: number;
    readonly duration: number;
    readonly firstEvent?: number;
  }

  /** An element `html()` found. */
  export interface HtmlElement {
    /** Its text content (all descendants' text), white space trimmed. */
    readonly text: string;
    /** An attribute's value (the name in any case), or undefined when it has none. */
    attr(name: string): string | undefined;
  }

  /** HTTP requests through barrage's request path (metrics, auth, retries). */
  export const http: {
    get(url: string, opts?: RequestOptions): Promise<Response>;
    del(url: string, opts?: RequestOptions): Promise<Response>;
    post(url: string, body?: Body, opts?: RequestOptions): Promise<Response>;
    put(url: string, body?: Body, opts?: RequestOptions): Promise<Response>;
    patch(url: string, body?: Body, opts?: RequestOptions): Promise<Response>;
    request(method: string, url: string, body?: Body, opts?: RequestOptions): Promise<Response>;
    /** The virtual user's cookie jar, the one its requests use (k6's `http.cookieJar()`). */
    cookieJar(): CookieJar;
    /**
     * Sends the requests at once, at most 6 in flight (k6's `batchPerHost`), each on its own
     * connection of the virtual user and counted as a request of its own name; resolves to their
     * responses in the order given. At most 1000 requests; one refused (a host not allowed) throws
     * for the batch, before anything is sent.
     */
    batch(requests: readonly BatchRequest[]): Promise<Response[]>;
  };

  /** A request of `http.batch()`: a url (GET), `[method, url, body?, params?]`, or an object. */
  export type BatchRequest =
    | string
    | readonly [method: string, url: string, body?: Body, params?: RequestOptions]
    | { method?: string; url: string; body?: Body; params?: RequestOptions };

  /** A virtual user's cookies (RFC 6265); urls as for requests (relative to the target). */
  export interface CookieJar {
    /** The cookies a request to `url` would send, by name (k6 gives each name a list). */
    cookiesForURL(url: string): Record<string, string>;
    /**
     * Stores a cookie for `url`, as if its server had set it: host-only on the default path
     * unless `opts` say otherwise. A `domain` the url is not in is refused, as a browser does.
     */
    set(url: string, name: string, value: string, opts?: CookieOptions): void;
    /** Forgets the cookies a request to `url` would send; without a url, every cookie. */
    clear(url?: string): void;
    /** Forgets the cookie `name` a request to `url` would send. */
    delete(url: string, name: string): void;
  }

  /** Attributes of a cookie jar.set() stores (k6's names; camelCase works too). */
  export interface CookieOptions {
    domain?: string;
    path?: string;
    /** A date as Set-Cookie's Expires: `'Wed, 21 Oct 2026 07:28:00 GMT'`. */
    expires?: string;
    /** Seconds it lives; 0 or less removes it. */
    max_age?: number;
    maxAge?: number;
    secure?: boolean;
    http_only?: boolean;
    httpOnly?: boolean;
  }

  /** Options of a WebSocket session. */
  export interface WsSessionOptions {
    /** Text messages sent in turn, each waiting for its reply. */
    messages?: string[];
    /** Pause after each reply, in milliseconds. */
    interval?: number;
    subprotocols?: string[];
    /** Bound of each wait (handshake, reply, close) in milliseconds (default: the run's `timeout`). */
    timeout?: number;
    /** Name of the session in per-endpoint stats (default: `WS /path`). */
    name?: string;
    /** Your own tags on the session's samples, as a request's `tags`. */
    tags?: Record<string, string | number | boolean>;
  }

  /** How a WebSocket session ended. */
  export interface WsSession {
    /** Every step succeeded: handshake, each message's reply, close. */
    readonly ok: boolean;
    /** The handshake's HTTP status: 101 when accepted, 0 when none came. */
    readonly status: number;
    /** The error kind when it failed (`ws_handshake`, `timeout`, `refused`, …), as in the reports. */
    readonly error?: string;
  }

  /** Options of ws.connect(). */
  export interface WsConnectOptions {
    /** Handshake headers, added to the run's. */
    headers?: Record<string, string>;
    subprotocols?: string[];
    /** Bound of the handshake and of each request()/receive() in milliseconds (default: the run's `timeout`). */
    timeout?: number;
    /** Name of the session in per-endpoint stats (default: `WS /path`). */
    name?: string;
    /** Your own tags on the session's samples, as a request's `tags`. */
    tags?: Record<string, string | number | boolean>;
  }

  /** A frame received: text, or the bytes of a binary frame. */
  export type WsData = string | ArrayBuffer;

  /** An open socket of ws.connect(); its events arrive in order. */
  export interface Socket {
    on(event: 'open', handler: () => void): void;
    /** A text frame. */
    on(event: 'message', handler: (text: string) => void): void;
    /** A binary frame. */
    on(event: 'binaryMessage', handler: (data: ArrayBuffer) => void): void;
    /** The socket ended: the close code (1006 when the connection was lost). */
    on(event: 'close', handler: (code: number) => void): void;
    /** The session failed: its error kind, as in the reports (`ws_abnormal_close`, …). */
    on(event: 'error', handler: (kind: string) => void): void;
    /** Sends a text frame (once open). */
    send(text: string): void;
    /** Sends a binary frame (once open). */
    sendBinary(data: ArrayBuffer | ArrayBufferView): void;
    /**
     * Sends `data` and resolves to the first frame after it that `match` selects (every frame
     * still reaches on('message')), recording the round trip in ws_message_rtt; undefined when
     * none came within the timeout (the session then fails as ws_timeout) or the socket ended.
     */
    request(
      data: string | ArrayBuffer,
      match?: (data: WsData) => unknown,
      opts?: { timeout?: number },
    ): Promise<WsData | undefined>;
    /** Resolves to the next frame `match` selects; undefined as for request(). */
    receive(
      match?: (data: WsData) => unknown,
      opts?: { timeout?: number },
    ): Promise<WsData | undefined>;
    /** Sends a close frame (default 1000). */
    close(code?: number, reason?: string): void;
    /** Runs fn once after ms, while the socket is open; returns its id. */
    setTimeout(fn: () => void, ms: number): number;
    /** Runs fn every ms while the socket is open; returns its id. */
    setInterval(fn: () => void, ms: number): number;
    clearTimeout(id: number): void;
    clearInterval(id: number): void;
  }

  /** How a ws.connect() session ended. */
  export interface WsConnection extends WsSession {
    /** The handshake response's headers, names lower case. */
    readonly headers: Record<string, string>;
  }

  /** WebSocket sessions through the same runner as ws:// endpoints (WebSocket metrics). */
  export const ws: {
    /** connect → each message and its reply → close. */
    session(url: string, opts?: WsSessionOptions): Promise<WsSession>;
    /**
     * An event-driven socket, as k6's ws.connect: `handler` sets it up at once (on('open'), timers);
     * resolves once the socket has closed. A throw in a handler closes it and rejects.
     */
    connect(
      url: string,
      opts: WsConnectOptions | undefined,
      handler: (socket: Socket) => void,
    ): Promise<WsConnection>;
  };

  /**
   * Records each named check in the `checks` metric, with the current group and your `tags`;
   * true when every one passed.
   */
  export function check<T>(
    value: T,
    checks: Record<string, (value: T) => unknown>,
    tags?: Record<string, string | number | boolean>,
  ): boolean;

  /** Waits this many seconds (the only timer in the sandbox). */
  export function sleep(seconds: number): Promise<void>;

  /**
   * This virtual user: its number, and its own tags, which every sample it makes from then on
   * carries (requests, sessions, checks, custom metrics), as k6's `exec.vu.tags`: `vu.tags.tenant =
   * 'acme'`. A call's own `tags` win on a shared key; keys may not be barrage's own.
   */
  export const vu: {
    /** 0-based, unique in the run (k6's `__VU` is this plus 1). */
    readonly id: number;
    readonly tags: Record<string, string | number | boolean>;
  };

  /**
   * k6/execution's context (docs/from-k6.md): the virtual user, the scenario its iteration runs
   * for, and the test. `scenario` and the iteration numbers are read inside an iteration only.
   */
  export const exec: {
    readonly vu: {
      /** 1-based, unique in the run (k6's `__VU`; `vu.id + 1`). */
      readonly idInTest: number;
      /** This virtual user's iterations before this one (k6's `__ITER`): 0 in its first. */
      readonly iterationInScenario: number;
      /** The same as iterationInScenario: a virtual user runs one scenario. */
      readonly iterationInInstance: number;
      /** The virtual user's own tags, the same object as `vu.tags`. */
      readonly tags: Record<string, string | number | boolean>;
    };
    readonly scenario: {
      /** The scenario's name (`default` for the top-level form). */
      readonly name: string;
      /**
       * The iteration's number in its scenario, from 0, unique across the run; with several
       * threads or processes they take turns (thread t of n: t, t + n, …), so the last numbers
       * may skip some.
       */
      readonly iterationInTest: number;
    };
    readonly test: {
      /**
       * Stops the run as failed: stderr says "the run stopped: the scenario aborted the test
       * (exec.test.abort): reason", the exit code is 1 (k6's is 108), the iterations under way end
       * as a stop ends them, teardown() runs. Throws, to end this iteration where it is.
       */
      abort(reason?: string): never;
    };
  };

  /** Runs fn; its requests, sessions and checks carry the tag `group=name` (nested: `a › b`). */
  export function group<T>(name: string, fn: () => T | Promise<T>): Promise<T>;

  /**
   * The virtual user's variables (shared with auth templates such as `{{token}}`). A value that
   * is not a string is stored as its JSON text, and read back as that text.
   */
  export const vars: {
    get(key: string): string | undefined;
    set(key: string, value: unknown): void;
  };

  /** The next feeder record (also stored in vars), or null when the feeder is used up. */
  export function feed(): Record<string, string> | null;

  /**
   * A data file's records, shared by every virtual user without a copy (k6's SharedArray): read
   * only. Each read decodes a fresh copy of the record; changing it changes nothing shared.
   */
  export interface SharedRecords<T> extends Iterable<T> {
    readonly [index: number]: T;
    readonly length: number;
    at(index: number): T | undefined;
    forEach(fn: (record: T, index: number) => void): void;
    map<U>(fn: (record: T, index: number) => U): U[];
    filter(fn: (record: T, index: number) => unknown): T[];
    find(fn: (record: T, index: number) => unknown): T | undefined;
    findIndex(fn: (record: T, index: number) => unknown): number;
    findLast(fn: (record: T, index: number) => unknown): T | undefined;
    findLastIndex(fn: (record: T, index: number) => unknown): number;
    some(fn: (record: T, index: number) => unknown): boolean;
    every(fn: (record: T, index: number) => unknown): boolean;
    reduce<U>(fn: (sum: U, record: T, index: number) => U, initial: U): U;
    slice(start?: number, end?: number): T[];
    includes(record: T): boolean;
    indexOf(record: T): number;
    join(separator?: string): string;
    keys(): IterableIterator<number>;
    values(): IterableIterator<T>;
    entries(): IterableIterator<[number, T]>;
  }

  /**
   * Data files of the scenario's folder, opened at its top level, read once before any traffic
   * and shared by every virtual user (docs/scenarios.md, "Shared data").
   */
  export const data: {
    /** A JSON file holding an array: its elements. */
    json<T = unknown>(file: string): SharedRecords<T>;
    /** A CSV file with a header row: each row as an object of the header's fields. */
    csv(file: string): SharedRecords<Record<string, string>>;
  };

  /**
   * Custom metrics, as k6's (docs/scenarios.md, Custom metrics): declared at the top level of the
   * scenario (a declaration inside an iteration throws), fed by `add(value, tags)` inside
   * iterations. A sample carries the call's tags, its group and its scenario. Names: a letter or
   * _, then up to 127 letters, digits or _; not a built-in metric's; one type per name.
   */
  interface Metric<V> {
    readonly name: string;
    add(value: V, tags?: Record<string, string | number | boolean>): void;
  }

  /** Values summarized by percentiles (p50, p95, avg, min, max…); from 0 to about 9e12. */
  export class Trend implements Metric<number | boolean> {
    /** isTime: the values are milliseconds (reports print ms). */
    constructor(name: string, isTime?: boolean);
    readonly name: string;
    readonly isTime: boolean;
    add(value: number | boolean, tags?: Record<string, string | number | boolean>): void;
  }

  /** A sum: count is the sum of the values added, rate the sum per second. */
  export class Counter implements Metric<number | boolean> {
    constructor(name: string);
    readonly name: string;
    add(value: number | boolean, tags?: Record<string, string | number | boolean>): void;
  }

  /** The share of truthy values added (rate), and their number (count). */
  export class Rate implements Metric<unknown> {
    constructor(name: string);
    readonly name: string;
    add(value: unknown, tags?: Record<string, string | number | boolean>): void;
  }

  /** The last value added (value), and the least and most it held (min, max). */
  export class Gauge implements Metric<number | boolean> {
    constructor(name: string);
    readonly name: string;
    add(value: number | boolean, tags?: Record<string, string | number | boolean>): void;
  }

  /**
   * The environment variables the user named for the scenario (`--env KEY=VALUE`, `--env KEY`,
   * `scenario_env` in the configuration file), frozen; also the global `__ENV`, k6's name. A
   * variable not named is absent, whatever barrage's own environment holds.
   */
  export const env: ScenarioEnv;

  /** Variable names and their values. */
  export type ScenarioEnv = { readonly [name: string]: string | undefined };

  /** A hash algorithm (k6/crypto's names; the hyphenated forms work too). */
  export type HashAlgorithm =
    'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512' | 'sha512_224' | 'sha512_256';

  /** How a digest is returned: text, or `'binary'` for its bytes. */
  export type DigestEncoding = 'hex' | 'base64' | 'base64url' | 'base64rawurl' | 'binary';

  /** What is hashed: text (as UTF-8) or bytes. */
  export type HashInput = string | ArrayBuffer | ArrayBufferView;

  /** A digest: text for a text encoding, an ArrayBuffer for `'binary'`. */
  export type Digest<E extends DigestEncoding> = E extends 'binary' ? ArrayBuffer : string;

  /**
   * Hashes, HMACs and random values by the host's node:crypto, with k6/crypto's names
   * (docs/scenarios.md, "Environment and web globals"). Not seeded by the run's `seed`.
   */
  export const crypto: {
    /** `hash('sha256', 'abc', 'hex')`. */
    hash<E extends DigestEncoding>(
      algorithm: HashAlgorithm,
      data: HashInput,
      encoding: E,
    ): Digest<E>;
    /** `hmac('sha256', key, data, 'base64')`. */
    hmac<E extends DigestEncoding>(
      algorithm: HashAlgorithm,
      key: HashInput,
      data: HashInput,
      encoding: E,
    ): Digest<E>;
    md5<E extends DigestEncoding>(data: HashInput, encoding: E): Digest<E>;
    sha1<E extends DigestEncoding>(data: HashInput, encoding: E): Digest<E>;
    sha256<E extends DigestEncoding>(data: HashInput, encoding: E): Digest<E>;
    sha384<E extends DigestEncoding>(data: HashInput, encoding: E): Digest<E>;
    sha512<E extends DigestEncoding>(data: HashInput, encoding: E): Digest<E>;
    sha512_224<E extends DigestEncoding>(data: HashInput, encoding: E): Digest<E>;
    sha512_256<E extends DigestEncoding>(data: HashInput, encoding: E): Digest<E>;
    /** A streaming hasher, k6's: `createHash('sha256').update('a').update(bytes).digest('hex')`. */
    createHash(algorithm: HashAlgorithm): Hasher;
    /** A streaming HMAC: `createHMAC('sha256', key).update(data).digest('base64rawurl')`. */
    createHMAC(algorithm: HashAlgorithm, key: HashInput): Hasher;
    /** `size` (at most 65,536) random bytes from the host's CSPRNG. */
    randomBytes(size: number): ArrayBuffer;
    /** The web's crypto.randomUUID(): a version 4 UUID. */
    randomUUID(): `${string}-${string}-${string}-${string}-${string}`;
    /** The web's crypto.getRandomValues(): fills an integer typed array (at most 65,536 bytes). */
    getRandomValues<T extends ArrayBufferView | null>(array: T): T;
  };

  /** A streaming hash or HMAC; digest() may be called again after more update()s. */
  export interface Hasher {
    /** Adds text (UTF-8) or bytes; at most 10,000 pieces a hasher. */
    update(data: HashInput): Hasher;
    digest<E extends DigestEncoding>(encoding: E): Digest<E>;
  }

  /** k6/encoding's base64 variants: padded or raw (no `=`), standard or url alphabet. */
  export type Base64Variant = 'std' | 'rawstd' | 'url' | 'rawurl';

  /** k6/encoding's base64, by the host's Buffer. */
  export const encoding: {
    /** Base64 of text (UTF-8) or bytes; variant `std` by default. */
    b64encode(data: HashInput, variant?: Base64Variant): string;
    /** The bytes base64 text holds, or with format `'s'` those bytes as UTF-8 text. */
    b64decode<F extends 's' | undefined = undefined>(
      data: string,
      variant?: Base64Variant,
      format?: F,
    ): F extends 's' ? string : ArrayBuffer;
  };

  /** What an iteration is told about its virtual user. */
  export interface VirtualUser {
    /** 0-based, unique in the run (k6's `__VU` is this plus 1). */
    readonly id: number;
    /** This virtual user's iterations so far, this one included: 1 in its first. */
    readonly iteration: number;
  }
}

/** k6's name for the scenario's environment: the same frozen object as `env` of 'barrage'. */
declare const __ENV: { readonly [name: string]: string | undefined };
