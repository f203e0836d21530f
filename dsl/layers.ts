/**
 * Configuration layers and their merge (spec §1.2): flags > environment > file > defaults.
 *
 * Merge rules, documented in docs/configuration.md:
 * - a key set by a higher layer replaces the lower layers' value whole (mappings such as `auth` or
 *   `pattern` are not mixed across layers), except
 * - `headers`, `report` and `http_debug`, merged key by key, and
 * - `thresholds`, which accumulate: file, then environment, then flags (spec §4.4 rule 1).
 * `__proto__`, `constructor` and `prototype` keys are refused in every layer.
 */
import type { ConfigIssue, Source } from './issues.js';
import { formatPath } from './issues.js';

/** One source of configuration values and where each came from. */
export interface Layer {
  readonly name: 'flags' | 'env' | 'file' | 'scenario';
  readonly values: Readonly<Record<string, unknown>>;
  /** The source of the value at `path` (of its key when `key` is true). */
  sourceOf(path: readonly (string | number)[], key?: boolean): Source;
  /** Paths (formatPath form) whose value came from a ${NAME} environment reference. */
  readonly secretPaths: ReadonlySet<string>;
  /**
   * Strings of this layer never to be shown wherever they turn up: the values ${NAME} took, the
   * whole text of a BARRAGE_* variable that can hold secrets, a malformed --header.
   */
  readonly secretValues: ReadonlySet<string>;
}

/** Where each merged value came from. */
export interface Provenance {
  sourceOf(path: readonly (string | number)[], key?: boolean): Source;
  /** True when the value at path (or a parent) came from ${NAME} interpolation. */
  isInterpolated(path: readonly (string | number)[]): boolean;
}

const MERGED_BY_KEY = new Set(['headers', 'report', 'http_debug']);
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** Merges layers given highest precedence first. */
export function mergeLayers(layers: readonly Layer[]): {
  raw: Record<string, unknown>;
  provenance: Provenance;
} {
  const raw: Record<string, unknown> = {};
  const owners = new Map<string, Layer>();
  const thresholdOwners: Layer[] = [];
  for (const layer of [...layers].reverse()) {
    for (const [key, value] of Object.entries(layer.values)) {
      if (key === 'thresholds' && Array.isArray(value)) {
        const before = Array.isArray(raw.thresholds) ? (raw.thresholds as unknown[]) : [];
        raw.thresholds = [...before, ...(value as unknown[])];
        for (let i = 0; i < value.length; i++) thresholdOwners.push(layer);
      } else if (MERGED_BY_KEY.has(key) && isPlainObject(value) && isPlainObject(raw[key])) {
        raw[key] = { ...raw[key], ...value };
        for (const sub of Object.keys(value)) owners.set(`${key}.${sub}`, layer);
      } else {
        raw[key] = value;
        owners.set(key, layer);
        if (isPlainObject(value))
          for (const sub of Object.keys(value)) owners.set(`${key}.${sub}`, layer);
      }
    }
  }
  const ownerOf = (path: readonly (string | number)[]): Layer | undefined => {
    const [top, second] = path;
    if (top === 'thresholds' && typeof second === 'number') return thresholdOwners[second];
    if (typeof top === 'string' && MERGED_BY_KEY.has(top) && second !== undefined) {
      return owners.get(`${top}.${second}`) ?? owners.get(top);
    }
    return typeof top === 'string' ? owners.get(top) : undefined;
  };
  const localPath = (
    path: readonly (string | number)[],
    layer: Layer,
  ): readonly (string | number)[] => {
    if (path[0] !== 'thresholds' || typeof path[1] !== 'number') return path;
    const index = thresholdOwners.slice(0, path[1]).filter((owner) => owner === layer).length;
    return ['thresholds', index, ...path.slice(2)];
  };
  const provenance: Provenance = {
    sourceOf(path, key) {
      const owner = ownerOf(path);
      return owner === undefined
        ? { kind: 'default' }
        : owner.sourceOf(localPath(path, owner), key);
    },
    isInterpolated(path) {
      const owner = ownerOf(path);
      if (owner === undefined) return false;
      const local = localPath(path, owner);
      for (let i = 1; i <= local.length; i++)
        if (owner.secretPaths.has(formatPath(local.slice(0, i)))) return true;
      return false;
    },
  };
  return { raw, provenance };
}

/** Issues for every forbidden key (`__proto__`, `constructor`, `prototype`) anywhere in a layer. */
export function findForbiddenKeys(layer: Layer): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [
    { value: layer.values, path: [] },
  ];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
    } else if (value !== null && typeof value === 'object') {
      for (const key of Reflect.ownKeys(value)) {
        if (typeof key !== 'string') continue;
        if (FORBIDDEN.has(key)) {
          issues.push({
            code: 'forbidden_key',
            source: layer.sourceOf([...path, key], true),
            path: [...path, key],
            expected: 'a configuration key',
            actual: `"${key}", which is refused (prototype pollution)`,
          });
        } else {
          stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
        }
      }
    }
  }
  return issues;
}

/** True for {} objects (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
