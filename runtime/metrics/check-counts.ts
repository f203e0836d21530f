/**
 * The checks of a shard: passes and fails by check name (allocating only for a name seen the
 * first time) and, for checks with tags (an endpoint's name, a scenario's group and call tags),
 * by name and tags too. Past MAX_NAMES names a new one is counted under OTHER_NAME; past MAX_NAMES
 * tagged series a new one is not kept. The same tags object is looked up without building a key.
 */
import type { Tags } from '../../model/metrics/metric-registry.js';
import { endpointKey } from './align-endpoints.js';
import { byCodePoint } from './endpoint-figures.js';
import { MAX_NAMES, OTHER_NAME } from './name-bound.js';
import type { ChecksSnapshot } from './snapshot.js';

/** Passes and fails of one check. */
class CheckCount {
  passes = 0;
  fails = 0;

  add(pass: boolean): void {
    if (pass) this.passes++;
    else this.fails++;
  }
}

/** One check's counts under one set of tags. */
interface TaggedCount {
  readonly name: string;
  readonly tags: Tags;
  readonly count: CheckCount;
}

/** A shard's check counts. */
export class CheckCounts {
  readonly #byName = new Map<string, CheckCount>();
  #tagged: Map<string, TaggedCount> | undefined;
  readonly #byTags = new WeakMap<Tags, Map<string, CheckCount>>();

  /** One check's outcome, with its tags if it has any. */
  add(name: string, pass: boolean, tags: Tags | undefined): void {
    let count = this.#byName.get(name);
    if (count === undefined) {
      const kept = this.#byName.size < MAX_NAMES ? name : OTHER_NAME;
      count = this.#byName.get(kept);
      if (count === undefined) this.#byName.set(kept, (count = new CheckCount()));
    }
    count.add(pass);
    if (tags !== undefined) this.#taggedCount(name, tags)?.add(pass);
  }

  #taggedCount(name: string, tags: Tags): CheckCount | undefined {
    let byName = this.#byTags.get(tags);
    if (byName === undefined) this.#byTags.set(tags, (byName = new Map<string, CheckCount>()));
    let count = byName.get(name);
    if (count !== undefined) return count;
    const key = endpointKey(name, tags);
    const series = (this.#tagged ??= new Map<string, TaggedCount>());
    let known = series.get(key);
    if (known === undefined && series.size < MAX_NAMES)
      series.set(key, (known = { name, tags, count: new CheckCount() }));
    count = known?.count;
    if (count !== undefined) byName.set(name, count);
    return count;
  }

  /** The counts as a snapshot: names in code-point order, totals, the tagged series if any. */
  snapshot(): ChecksSnapshot {
    let passes = 0;
    let fails = 0;
    const entries: [string, { passes: number; fails: number }][] = [];
    for (const name of [...this.#byName.keys()].sort()) {
      const c = this.#byName.get(name)!;
      passes += c.passes;
      fails += c.fails;
      entries.push([name, { passes: c.passes, fails: c.fails }]);
    }
    const series = [...(this.#tagged ?? new Map<string, TaggedCount>()).entries()]
      .sort(([a], [b]) => byCodePoint(a, b))
      .map(([, { name, tags, count }]) => ({
        name,
        tags,
        passes: count.passes,
        fails: count.fails,
      }));
    // fromEntries defines own properties, so a check named "__proto__" stays a plain key.
    return {
      passes,
      fails,
      byName: Object.fromEntries(entries),
      ...(series.length === 0 ? {} : { tagged: series }),
    };
  }
}
