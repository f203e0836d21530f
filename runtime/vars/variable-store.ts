/**
 * A worker's variables (spec §2.5 and state table §3.1):
 *
 *   (start)  --store creation-->  Created
 *   Created  --first request-->   Active
 *   Active   --Set/Get/Merge-->   Active      (value stored / returned / record fields stored)
 *   Active   --Clear-->           Cleared     (entries removed)
 *   Cleared  --Set-->             Active
 *   Active   --test complete-->   (end)
 *
 * The table does not say what Get, Merge or Clear do in Created or Cleared; here Get answers
 * (undefined when unset) without changing state, Merge acts like a Set of each field (so it also
 * leads to Active), and Clear in Cleared stays Cleared.
 *
 * The store lives on the host, fed by code and responses barrage does not trust (a scenario's
 * vars.set, extractors over a target's bodies): it holds at most MAX_VARIABLES keys and
 * MAX_VARIABLE_CHARS characters of keys and values. A Set past either bound is refused and
 * changes nothing. Merge (a feeder record: the user's own file, whose columns are fixed) is
 * counted but never refused.
 *
 * A value may be typed: JSON text of a number, boolean, null, object or array (a JSON extractor's
 * or a JSON feeder record's non-string, a scenario's vars.set of a non-string). A JSON body sends
 * a typed value as that type where its placeholder is a whole string value (model/plan/template.ts).
 * The typed keys are a subset of the keys, so the bounds cover them.
 */
import type { FeederRecord } from '../feeder/feeder.js';

/** Variables a virtual user may hold. */
export const MAX_VARIABLES = 1000;
/** Characters of keys and values a virtual user may hold (1 MiB of text). */
export const MAX_VARIABLE_CHARS = 1024 * 1024;

/** The store's states. */
export type VariableStoreState = 'Created' | 'Active' | 'Cleared' | 'Ended';

/** Key → string map with the spec's states. */
export class VariableStore {
  readonly #values = new Map<string, string>();
  readonly #typed = new Set<string>();
  /** Characters of the keys and values held. */
  #chars = 0;
  #state: VariableStoreState = 'Created';

  /** Current state. */
  get state(): VariableStoreState {
    return this.#state;
  }

  /** The worker's first request moves Created → Active. */
  begin(): void {
    if (this.#state === 'Created') this.#state = 'Active';
  }

  /**
   * Stores a value (`typed`: it is JSON text of a non-string); false (nothing stored) when it
   * would pass the store's bounds.
   */
  set(key: string, value: string, typed = false): boolean {
    this.#assertLive();
    const isNew = !this.#values.has(key);
    if (
      this.#chars + this.#growth(key, value) > MAX_VARIABLE_CHARS ||
      (isNew && this.#values.size >= MAX_VARIABLES)
    )
      return false;
    this.#store(key, value, typed);
    this.#state = 'Active';
    return true;
  }

  /** The value, or undefined when unset. */
  get(key: string): string | undefined {
    return this.#values.get(key);
  }

  /** True when the value is typed: JSON text of a non-string. */
  typed(key: string): boolean {
    return this.#typed.has(key);
  }

  /** Stores every field of a record (a feeder row) that the record has. */
  merge(record: FeederRecord): void {
    this.#assertLive();
    const { fields, values, typed } = record;
    for (let f = 0; f < fields.length; f++) {
      const value = values[f];
      if (value !== undefined) this.#store(fields[f]!, value, typed[f] === true);
    }
    this.#state = 'Active';
  }

  /** Removes every entry. */
  clear(): void {
    this.#assertLive();
    this.#values.clear();
    this.#typed.clear();
    this.#chars = 0;
    this.#state = 'Cleared';
  }

  /** The test is complete. */
  end(): void {
    this.#state = 'Ended';
  }

  /** A copy of the entries (for scripts and debugging; not on the hot path). */
  entries(): Record<string, string> {
    return Object.fromEntries(this.#values);
  }

  /** Stores a value whatever the bounds (Merge does not check them). */
  #store(key: string, value: string, typed: boolean): void {
    this.#chars += this.#growth(key, value);
    this.#values.set(key, value);
    if (typed) this.#typed.add(key);
    else if (this.#typed.size > 0) this.#typed.delete(key);
  }

  /** How many characters storing a value adds (negative when it replaces a longer one). */
  #growth(key: string, value: string): number {
    const old = this.#values.get(key);
    return old === undefined ? key.length + value.length : value.length - old.length;
  }

  #assertLive(): void {
    if (this.#state === 'Ended') throw new Error('variable store used after the test completed');
  }
}
