/**
 * Where a scenario's calls go and the names they are counted under. A call reaches only the
 * target's origin and `allowed_hosts` (a host name allows every port of it; host:port only that
 * port). Request names (per-endpoint stats) are `name` when given, else `METHOD path` without the
 * query; each distinct name and tags is an endpoint of every metrics shard of the segment, at
 * most MAX_NAMES of them: later ones are counted under OTHER_NAME (name-bound.ts; the recorder
 * bounds check names the same way), and the reports warn how many were folded.
 */
import { isAbsoluteUrl, webSocketBase } from '../../model/request/url-rules.js';
import type { Tags } from '../../model/metrics/metric-registry.js';
import type { Plan } from '../../model/plan/plan.js';
import { AllowedHosts } from '../http/allowed-hosts.js';
import { endpointKey } from '../metrics/align-endpoints.js';
import { MAX_NAMES, OTHER_NAME } from '../metrics/name-bound.js';
import type { Recorder } from '../metrics/recorder.js';

/** Distinct folded names counted for the reports' warning (a bound on the set that counts them). */
const MAX_FOLDED_NAMES = 10_000;

/** The urls and request names of one segment's scenario calls. */
export class CallTargets {
  readonly #target: URL | undefined;
  readonly #hosts: AllowedHosts;
  readonly #names = new Map<string, number>();
  /** Names counted under OTHER_NAME, kept up to MAX_FOLDED_NAMES to count them for the warning. */
  readonly #folded = new Set<string>();

  /**
   * `recorders`: every metrics shard of the segment; a name discovered while running is added to
   * all of them, so that their endpoint lists stay the same and merge.
   */
  constructor(
    plan: Plan,
    private readonly recorders: readonly Recorder[],
  ) {
    this.#target = plan.target === undefined ? undefined : new URL(plan.target);
    this.#hosts = AllowedHosts.of(plan);
  }

  /**
   * The absolute URL of a call, refused unless it is the target's host (and port) or allowed.
   * http takes http(s) urls, ws takes ws(s) urls; relative urls are appended to the target (for
   * ws, with its scheme made ws/wss).
   */
  resolve(url: string, kind: 'http' | 'ws' = 'http'): URL {
    const absolute = isAbsoluteUrl(url);
    if (!absolute && this.#target === undefined)
      throw new Error(`${kind}: relative url "${url}" needs a target`);
    let base = this.#target?.href.replace(/\/+$/, '') ?? '';
    if (kind === 'ws') base = webSocketBase(base);
    const parsed = new URL(absolute ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`);
    const schemes = kind === 'http' ? ['http:', 'https:'] : ['ws:', 'wss:'];
    if (!schemes.includes(parsed.protocol))
      throw new Error(`${kind}: ${parsed.protocol} urls are not supported`);
    if (!this.#hosts.allows(parsed))
      throw new Error(
        `${kind}: ${parsed.host} is not the target's host nor in allowed_hosts; nothing was sent`,
      );
    return parsed;
  }

  /** The endpoint index of a name and its own tags: one per distinct pair, MAX_NAMES at most. */
  index(name: string, tags: Tags): number {
    const key = endpointKey(name, tags);
    const known = this.#names.get(key);
    if (known !== undefined) return known;
    // OTHER_NAME itself is the one name past the bound (else the call below would never end).
    if (this.#names.size >= MAX_NAMES && name !== OTHER_NAME) {
      this.#fold(key);
      return this.index(OTHER_NAME, {});
    }
    let index = -1;
    for (const recorder of this.recorders) index = recorder.addEndpoint(name, tags);
    this.#names.set(key, index);
    return index;
  }

  /** A name (and tags) counted under OTHER_NAME: the reports warn how many there were. */
  #fold(key: string): void {
    if (this.#folded.has(key) || this.#folded.size >= MAX_FOLDED_NAMES) return;
    this.#folded.add(key);
    for (const recorder of this.recorders) recorder.recordFoldedNames(this.#folded.size);
  }
}
