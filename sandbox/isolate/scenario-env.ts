/**
 * A scenario's environment (sandbox/scenario-env.ts): defines the global `__ENV` (k6's name;
 * read-only) and returns the same frozen object, the API's `env`. JSON.parse makes own
 * properties, so a variable named __proto__ is a plain key.
 */
import { parse } from './intrinsics.js';

/** The environment's variables by name. */
export type ScenarioEnvObject = Readonly<Record<string, string>>;

/** Defines `__ENV` from the ScenarioEnv as JSON text and returns it. */
export function defineEnv(envJson: string): ScenarioEnvObject {
  const env = Object.freeze(parse(envJson) as Record<string, string>);
  Object.defineProperty(globalThis, '__ENV', {
    value: env,
    writable: false,
    configurable: false,
    enumerable: false,
  });
  return env;
}
