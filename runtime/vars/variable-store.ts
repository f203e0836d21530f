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
 */

/** The store's states. */
export type VariableStoreState = 'Created' | 'Active' | 'Cleared' | 'Ended';

/** Key → string map with the spec's states. */
export class VariableStore {
  readonly #values = new Map<string, string>();
  #state: VariableStoreState = 'Created';

  /** Current state. */
  get state(): VariableStoreState {
    return this.#state;
  }

  /** The worker's first request moves Created → Active. */
  begin(): void {
    if (this.#state === 'Created') this.#state = 'Active';
  }

  /** Stores a value. */
  set(key: string, value: string): void {
    this.#assertLive();
    this.#values.set(key, value);
    this.#state = 'Active';
  }

  /** The value, or undefined when unset. */
  get(key: string): string | undefined {
    return this.#values.get(key);
  }

  /** Stores every field of a record (a feeder row). */
  merge(record: Readonly<Record<string, string>>): void {
    this.#assertLive();
    for (const key in record) this.#values.set(key, record[key]!);
    this.#state = 'Active';
  }

  /** Removes every entry. */
  clear(): void {
    this.#assertLive();
    this.#values.clear();
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

  #assertLive(): void {
    if (this.#state === 'Ended') throw new Error('variable store used after the test completed');
  }
}
