/**
 * The API's `exec`, k6/execution's context as a port reads it: the virtual user (`idInTest`, its
 * iterations, its tags), the scenario its iteration runs for (`name`, `iterationInTest`), and
 * `test.abort(reason)`, which stops the run as failed and ends the iteration where it is. What
 * the host knows (the scenario, the iteration numbers) is asked for when read, never per iteration.
 */
import { textOf } from './intrinsics.js';
import { hostCall, vuNumber, vuTags } from './vu-host.js';

/** What the host tells of the running iteration: [scenario, iterationInTest, iterationInScenario]. */
type ExecInfo = readonly [string, number, number];

const info = (what: string): ExecInfo => {
  const known = hostCall('exec.info', null) as ExecInfo | null;
  if (known === null)
    throw new Error(`exec.${what}: only inside an iteration (not in setup() or teardown())`);
  return known;
};

/** Thrown by exec.test.abort() to end the iteration where it is (the host counts it as aborted). */
class TestAborted extends Error {
  constructor(reason: string) {
    super(reason === '' ? 'the test was aborted' : reason);
    this.name = 'TestAborted';
  }
}

/** The API's `exec` (see the file comment). */
export const exec = Object.freeze({
  vu: Object.freeze({
    /** 1-based, unique in the run (k6's `__VU`). */
    get idInTest(): number {
      return vuNumber + 1;
    },
    /** This virtual user's iterations before this one in its scenario (k6's `__ITER`). */
    get iterationInScenario(): number {
      return info('vu.iterationInScenario')[2];
    },
    /** The same: a virtual user runs one scenario, in one instance. */
    get iterationInInstance(): number {
      return info('vu.iterationInInstance')[2];
    },
    tags: vuTags,
  }),
  scenario: Object.freeze({
    get name(): string {
      return info('scenario.name')[0];
    },
    /** Unique in the scenario across the run, from 0. */
    get iterationInTest(): number {
      return info('scenario.iterationInTest')[1];
    },
  }),
  test: Object.freeze({
    abort: (reason?: unknown): never => {
      const text = reason === undefined ? '' : textOf(reason);
      hostCall('exec.abort', text);
      throw new TestAborted(text);
    },
  }),
});
