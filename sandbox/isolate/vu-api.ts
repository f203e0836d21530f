/**
 * The API a scenario imports from 'barrage' (scenarios/barrage.d.ts), as a virtual user's context
 * builds it: plain functions over the host's handles (vu-host.ts), which user code can never reach.
 */
import type { BarrageCrypto } from './barrage-crypto.js';
import { stringify, textOf } from './intrinsics.js';
import { barrageEncoding } from './barrage-encoding.js';
import { exec } from './exec-api.js';
import { http } from './http-api.js';
import type { metricClasses } from './metric-classes.js';
import type { ScenarioEnvObject } from './scenario-env.js';
import type { sharedData } from './shared-data.js';
import {
  groupName,
  groups,
  hostCall,
  room,
  settled,
  tagsOf,
  vuNumber,
  vuTags,
  wait,
} from './vu-host.js';
import { ws } from './ws-api.js';

/** What the context made before the API: its data, environment, crypto and metric classes. */
export interface ApiParts {
  readonly data: ReturnType<typeof sharedData>;
  readonly env: ScenarioEnvObject;
  readonly crypto: BarrageCrypto;
  readonly metrics: ReturnType<typeof metricClasses>;
}

const check = (value: unknown, predicates: object, tags?: unknown): boolean => {
  const group = groupName();
  const own = tagsOf(tags);
  let all = true;
  for (const [name, predicate] of Object.entries(predicates)) {
    let pass = false;
    try {
      pass = Boolean((predicate as (v: unknown) => unknown)(value));
    } catch {
      pass = false;
    }
    hostCall('check', [name, pass, group, own]);
    all = all && pass;
  }
  return all;
};

const slept = async (seconds: unknown) => settled(await wait('sleep', stringify(Number(seconds))));

const group = async (name: unknown, fn: () => unknown): Promise<unknown> => {
  groups.push(textOf(name));
  try {
    return await fn();
  } finally {
    groups.pop();
  }
};

const vars = Object.freeze({
  get: (key: unknown) => hostCall('vars.get', textOf(key)),
  // A value that is not a string is stored as its JSON text, typed: a JSON body of a YAML
  // endpoint sends it as that type.
  set: (key: unknown, value: unknown) => {
    const json = typeof value === 'string' ? undefined : stringify(value);
    if (json === undefined) hostCall('vars.set', [textOf(key), textOf(value), false]);
    else hostCall('vars.set', [textOf(key), json, true]);
  },
});

/** The API (see the file comment). */
export function vuApi(parts: ApiParts) {
  return Object.freeze({
    vu: Object.freeze({ id: vuNumber, tags: vuTags }),
    http,
    ws,
    check,
    sleep: (seconds: unknown) => {
      room('sleep');
      return slept(seconds);
    },
    group,
    vars,
    feed: () => hostCall('feed', null),
    exec,
    data: parts.data,
    env: parts.env,
    crypto: parts.crypto,
    encoding: barrageEncoding,
    ...parts.metrics,
  });
}
