/**
 * The options reader's context (dsl/script/options-entry.ts): runs the bundle's top level with an
 * API that refuses calls (but for env, crypto, data and the web globals, which work there as in an
 * iteration), and returns [options, metrics, opened] as JSON texts: `options` (undefined when the
 * scenario has none), the metrics the top level declared (metric-classes.ts), and the data files
 * it opened. data.json(name) and data.csv(name) note which files the top level opens, so that
 * they are read, checked and shared before any traffic (dsl/script/read-shared-data.ts), and
 * return a stand-in that refuses to be read: records are read in iterations and setup(), once the
 * files are loaded (the sandbox's own `data` refuses reads at the top level with the same message).
 */
import { barrageEncoding } from './barrage-encoding.js';
import { READ_AT_TOP_LEVEL } from '../../model/plan/shared-data.js';
import { stringify } from './intrinsics.js';
import { metricClasses, type CustomKind } from './metric-classes.js';
import { removeGlobals } from './remove-globals.js';
import { defineEnv } from './scenario-env.js';
import type { WebCall } from './web-call.js';
import { installWebGlobals } from './web-globals.js';

/** The data files opened, once each, in order. */
const opened: { name: string; kind: 'json' | 'csv' }[] = [];

const dataOpener = (kind: 'json' | 'csv') => (name: unknown) => {
  if (typeof name !== 'string')
    throw new TypeError(
      'data.' + kind + "(): the data file's name, a string relative to the scenario's folder",
    );
  if (!opened.some((o) => o.name === name && o.kind === kind)) opened.push({ name, kind });
  const refused = () => {
    throw new Error('data.' + kind + '(' + stringify(name) + '): ' + READ_AT_TOP_LEVEL);
  };
  return new Proxy(Object.freeze(Object.create(null) as object), {
    get: refused,
    has: refused,
    ownKeys: refused,
  });
};

const refuse = (name: string) => () => {
  throw new Error(name + ' is not available outside an iteration');
};

/** The metrics declared, by name. */
const declared = Object.create(null) as Record<string, { type: CustomKind; unit: string }>;

/** The scenario's bundle: the API in, its exports out. */
type Factory = (api: object) => { readonly options?: unknown };

/** Reads the options (see the file comment). */
export function main(
  factory: Factory,
  web: WebCall,
  envJson: string,
): [string | undefined, string, string] {
  removeGlobals();
  const crypto = installWebGlobals(web);
  const env = defineEnv(envJson);
  const metrics = metricClasses({
    declared: (name, kind, unit) => {
      declared[name] = { type: kind, unit };
    },
    add: (name) => {
      throw new Error(
        name +
          '.add(): samples are added inside an iteration, not at the top level of the scenario',
      );
    },
  });
  const api = {
    http: {
      get: refuse('http.get'),
      post: refuse('http.post'),
      put: refuse('http.put'),
      patch: refuse('http.patch'),
      del: refuse('http.del'),
      request: refuse('http.request'),
    },
    ws: { session: refuse('ws.session'), connect: refuse('ws.connect') },
    check: refuse('check'),
    sleep: refuse('sleep'),
    group: refuse('group'),
    feed: refuse('feed'),
    vars: { get: refuse('vars.get'), set: refuse('vars.set') },
    data: Object.freeze({ json: dataOpener('json'), csv: dataOpener('csv') }),
    env,
    crypto,
    encoding: barrageEncoding,
    ...metrics,
  };
  const options = factory(api).options;
  return [
    options === undefined ? undefined : stringify(options),
    stringify(declared),
    stringify(opened),
  ];
}
