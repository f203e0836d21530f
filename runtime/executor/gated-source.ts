/**
 * The permit source of one virtual user of a ramping-vus scenario: a permit whenever the user is
 * active (in the closed model's way), none while the ramp has it idle, DONE once closed.
 */
import { DONE, NO_INTENDED_TIME, WAITING, type PermitSource } from '../schedule/permit-source.js';

/** One VU's gate. */
export class GatedSource implements PermitSource {
  active = false;
  #closed = false;
  #waiting: ((permit: number) => void) | undefined;

  take(waiter: (permit: number) => void): number {
    if (this.#closed) return DONE;
    if (this.active) return NO_INTENDED_TIME;
    this.#waiting = waiter;
    return WAITING;
  }

  /** Opens or shuts the gate; a worker waiting at an opened gate goes on. */
  set(active: boolean): void {
    this.active = active;
    if (active) this.#release(NO_INTENDED_TIME);
  }

  close(): void {
    this.#closed = true;
    this.#release(DONE);
  }

  #release(permit: number): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(permit);
  }
}
