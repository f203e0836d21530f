/**
 * Load patterns (spec §1.10, §4.3): the rate as a function of elapsed time.
 *   ramp:  rate = from + (to - from) * t / duration
 *   step:  the step whose time span holds t gives the rate
 *   spike: base until `at`, linear rise to `peak` over `rise`, `peak` for `hold`,
 *          linear fall to base over `fall`, base until `duration`.
 */
import * as z from 'zod';
import { duration, positiveNumber } from './fields.js';

/** The `pattern` key. */
export function patternSchema() {
  const ramp = z.strictObject({
    type: z.literal('ramp'),
    from: positiveNumber('rate at the start, per second', true),
    to: positiveNumber('rate at the end, per second', true),
    duration: duration('length of the ramp'),
  });

  const step = z.strictObject({
    type: z.literal('step'),
    steps: z
      .array(
        z.strictObject(
          {
            rate: positiveNumber('rate of this step, per second', true),
            duration: duration('length of this step'),
          },
          { error: 'a step: { rate, duration }' },
        ),
        { error: 'a list of steps' },
      )
      .min(1, { error: 'at least one step' }),
  });

  const spike = z.strictObject({
    type: z.literal('spike'),
    base: positiveNumber('rate outside the spike, per second', true),
    peak: positiveNumber('rate at the top of the spike, per second'),
    duration: duration('length of the whole pattern'),
    at: duration('when the spike starts; default a quarter of duration', true).optional(),
    rise: duration('time from base to peak; default 0', true).optional(),
    hold: duration('time at peak; default a tenth of duration', true).optional(),
    fall: duration('time from peak back to base; default 0', true).optional(),
  });

  return z.discriminatedUnion('type', [ramp, step, spike], {
    error: 'a pattern mapping whose type is ramp, step or spike',
  });
}
