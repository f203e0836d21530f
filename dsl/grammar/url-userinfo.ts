/**
 * A URL's user info (`http://user:password@host`) as HTTP Basic credentials: the user and the
 * password percent-decoded, joined by ":" and base64-encoded. A malformed escape (`%zz`) is an
 * error saying so, never the text itself (it may hold a password).
 */
import { err, ok, type Result } from '../result.js';

/** `Basic …` of a user and password. */
export function basicCredentials(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** `Basic …` of the URL's user info; undefined when it has none. */
export function basicFromUserinfo(url: URL): Result<string | undefined, string> {
  if (url.username === '' && url.password === '') return ok(undefined);
  try {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    return ok(basicCredentials(user, password));
  } catch {
    return err('a URL whose user info holds a malformed %-escape');
  }
}
