/**
 * Authentication injection (spec §5 rule 1, operation InjectHeader): a provider gives the
 * Authorization header value for the next request of a worker. OAuth 2.0 may have to wait for a
 * token (a promise); bearer and basic answer at once. undefined means there is no credential yet:
 * a bearer token or basic credentials whose variables have no value (spec §5.4: an extracted
 * token is sent "on later requests"), so the request that obtains it, such as a login, goes out
 * without Authorization. NO_TOKEN means the OAuth 2.0 provider gave up and the run is stopping
 * (the request is not sent and not counted).
 */
import type { AuthPlan } from '../../model/plan/plan.js';
import type { Random } from '../../model/random.js';
import { compileTemplate, render } from '../vars/render-template.js';
import type { VariableStore } from '../vars/variable-store.js';

/** Result of asking for a header when the provider gave up (the run is stopping): do not send. */
export const NO_TOKEN = Symbol('no token');

/** An Authorization value, none yet (undefined), or NO_TOKEN: do not send. */
export type Authorization = string | undefined | typeof NO_TOKEN;

/** Gives each request its Authorization header value. */
export interface AuthProvider {
  authorization(vars: VariableStore, random: Random): Authorization | Promise<Authorization>;
  /** Work to finish before dispatch starts (the first OAuth 2.0 token); absent when none. */
  prepare?(): Promise<void>;
  /** Stops background work (token refresh). */
  close(): void;
}

/**
 * The Authorization a session's handshake carries (WebSocket, Socket.IO): the provider's, none
 * when there is no provider or the endpoint sets its own; NO_TOKEN when the provider gave up.
 */
export async function handshakeAuthorization(
  auth: AuthProvider | undefined,
  ownAuthorization: boolean,
  vars: VariableStore,
  random: Random,
): Promise<Authorization> {
  if (auth === undefined || ownAuthorization) return undefined;
  return auth.authorization(vars, random);
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
