/**
 * A scenario's environment (docs/scenarios.md, "Environment and web globals"): only the
 * variables the user named outside the scenario (`--env`, `scenario_env`), never the whole
 * environment, since a scenario file is untrusted code that could send what it reads to a host it
 * may reach. Shared by the options reader and the sandbox's bootstrap, beside removed-globals.ts.
 */

/**
 * An expression that defines the global `__ENV` (k6's name; read-only) and evaluates to the same
 * frozen object, the API's `env`. It needs `envJson` (the ScenarioEnv as JSON text) and `parse`
 * (JSON.parse, taken before the scenario runs) in scope. JSON.parse makes own properties, so a
 * variable named __proto__ is a plain key.
 */
export const ENV_SOURCE = `(() => {
  const env = Object.freeze(parse(envJson));
  Object.defineProperty(globalThis, '__ENV', { value: env, writable: false, configurable: false, enumerable: false });
  return env;
})()`;
