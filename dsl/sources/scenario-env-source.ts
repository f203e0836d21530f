/**
 * The variables a TypeScript scenario reads as `env` and `__ENV` (docs/scenarios.md, "Environment
 * and web globals"): those the user named outside the scenario, never the whole environment.
 * - `scenario_env: [API_KEY, REGION]` in the configuration (or BARRAGE_SCENARIO_ENV): an
 *   allow-list; a listed variable that is unset is simply absent.
 * - `--env KEY=VALUE` (repeatable) gives a value; `--env KEY` passes KEY's current value, and
 *   KEY unset is an error (the user asked for it by name). A later `--env` wins over an earlier
 *   one and over the allow-list.
 * Every value is a secret (it may be a token), as the values ${NAME} takes are.
 */
import type { ConfigIssue } from '../issues.js';
import { ENV_NAME } from '../grammar/placeholder.js';
import type { ScenarioEnv } from '../../model/plan/plan.js';
import { err, ok, type Result } from '../result.js';

/** The scenario's environment from the allow-list and the `--env` flags. */
export function scenarioEnv(
  allowed: readonly string[],
  flags: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Result<ScenarioEnv, ConfigIssue[]> {
  const out: Record<string, string> = {};
  const put = (name: string, value: string): void => {
    // A property defined, not assigned: a variable named __proto__ stays a plain key.
    Object.defineProperty(out, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  };
  for (const name of allowed) {
    const value = env[name];
    if (value !== undefined) put(name, value);
  }
  const issues: ConfigIssue[] = [];
  for (const entry of flags) {
    const equals = entry.indexOf('=');
    const name = equals === -1 ? entry : entry.slice(0, equals);
    if (!ENV_NAME.test(name)) {
      issues.push(
        flagIssue(
          'KEY=VALUE or KEY, KEY a variable name (a letter or _, then letters, digits or _)',
          // The value after "=" may be a secret: only the name part is quoted.
          equals === -1 ? JSON.stringify(entry) : `${JSON.stringify(name)}=…`,
        ),
      );
      continue;
    }
    const value = equals === -1 ? env[name] : entry.slice(equals + 1);
    if (value === undefined) {
      issues.push(
        flagIssue(`environment variable ${name} to be set`, `--env ${name} with ${name} unset`),
      );
      continue;
    }
    put(name, value);
  }
  return issues.length > 0 ? err(issues) : ok(out);
}

function flagIssue(expected: string, actual: string): ConfigIssue {
  return {
    code: 'invalid_value',
    source: { kind: 'flag', flag: '--env' },
    path: [],
    expected,
    actual,
  };
}
