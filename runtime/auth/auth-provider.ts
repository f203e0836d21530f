/**
 * Authentication injection (spec §5 rule 1, operation InjectHeader): a provider gives the
 * Authorization header value for the next request of a worker. OAuth 2.0 may have to wait for a
 * token (a promise); bearer and basic answer at once. A credential templated on a variable that
 * is not set yet (a token a setup request will extract) is left out: the request that extracts it
 * goes without, and a target that needs it answers 401, which is measured.
 */
import type { AuthPlan } from '../../dsl/plan/plan.js';
import type { Random } from '../random.js';
import { compileTemplate, render } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';

/** Result of asking for a header: the value, or MISSING when a variable had no value. */
export const MISSING = Symbol('missing variable');

/** Gives each request its Authorization header value. */
export interface AuthProvider {
  authorization(
    vars: VariableStore,
    random: Random,
  ): string | undefined | typeof MISSING | Promise<string>;
  /** Stops background work (token refresh). */
  close(): void;
}

/** Bearer and basic providers; oauth2 is built by its own module and passed in. */
export function staticAuthProvider(plan: Exclude<AuthPlan, { type: 'oauth2' }>): AuthProvider {
  if (plan.type === 'bearer') {
    const token = compileTemplate(plan.token);
    return {
      authorization: (vars, random) => {
        const value = render(token, vars, random);
        return value === undefined ? undefined : `Bearer ${value}`;
      },
      close: () => undefined,
    };
  }
  const username = compileTemplate(plan.username);
  const password = compileTemplate(plan.password);
  return {
    authorization: (vars, random) => {
      const user = render(username, vars, random);
      const pass = render(password, vars, random);
      if (user === undefined || pass === undefined) return undefined;
      return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    },
    close: () => undefined,
  };
}
