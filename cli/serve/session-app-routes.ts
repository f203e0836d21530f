/**
 * The session app under /app/: a login form guarded by a synchroniser CSRF token, a cookie
 * session, and a page only a logged-in user sees, for trying and testing what a browser-like
 * client does (cookies, forms, redirects, extracting a token from HTML).
 *
 *   GET  /app/login      200 form; Set-Cookie sid=… when the request has no live session
 *   POST /app/login      not a form → 415; no session, or _csrf not the session's → 403;
 *                        known username + password → 302 /app/dashboard, new sid (rotated);
 *                        otherwise → 302 /app/login?error=1
 *   GET  /app/dashboard  logged in → 200 <h1 id="greeting">Hello, ada</h1>; else 302 /app/login
 *   POST /app/logout     ends the session, expires the cookie, 302 /app/login
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isFormContentType, readBody } from './read-body.js';
import {
  GET_ONLY,
  PAYLOAD_TOO_LARGE,
  POST_ONLY,
  prebuild,
  prebuildJson,
  redirect,
  sendHtml,
  sendPrebuilt,
} from './respond.js';
import { expiredSessionCookie, sessionCookie, sessionIdOf } from './session-cookie.js';
import { dashboardPage, loginPage } from './session-pages.js';
import { csrfTokenMatches } from './session-store.js';
import type { TargetContext } from './target-route.js';

/** The users the session app knows, and their passwords: those of scenarios/users.csv. */
export const SESSION_APP_USERS: ReadonlyMap<string, string> = new Map([
  ['ada', 'lovelace'],
  ['grace', 'hopper'],
  ['alan', 'turing'],
]);

const FORM_REQUIRED = prebuildJson(415, {
  error: 'a form (application/x-www-form-urlencoded) is required',
});
const BAD_CSRF = prebuild(403, 'text/plain; charset=utf-8', 'invalid or missing CSRF token\n');
const LOGIN_METHODS = prebuildJson(
  405,
  { error: 'method not allowed' },
  { allow: 'GET, HEAD, POST' },
);

/** /app/login: the form on GET, the login on POST. */
export async function appLoginRoute(
  req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  query: string,
  context: TargetContext,
): Promise<void> {
  if (req.method === 'POST') return submitLogin(req, res, context);
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendPrebuilt(res, LOGIN_METHODS);
  const id = sessionIdOf(req.headers.cookie);
  let session = context.sessions.get(id);
  if (session === undefined) {
    const created = context.sessions.create();
    context.stats.sessionEvent('sessionsCreated');
    res.setHeader('set-cookie', sessionCookie(created.id));
    session = created.session;
  }
  const failed = new URLSearchParams(query).get('error') === '1';
  sendHtml(res, 200, loginPage(session.csrfToken, failed));
}

async function submitLogin(
  req: IncomingMessage,
  res: ServerResponse,
  context: TargetContext,
): Promise<void> {
  if (!isFormContentType(req.headers['content-type'])) return sendPrebuilt(res, FORM_REQUIRED);
  const body = await readBody(req);
  if (body === null) return sendPrebuilt(res, PAYLOAD_TOO_LARGE);
  const form = new URLSearchParams(body.toString('utf8'));
  const id = sessionIdOf(req.headers.cookie);
  const session = context.sessions.get(id);
  if (id === undefined || session === undefined || !csrfTokenMatches(session, form.get('_csrf'))) {
    context.stats.sessionEvent('csrfRejected');
    return sendPrebuilt(res, BAD_CSRF);
  }
  const user = form.get('username');
  const password = form.get('password');
  if (user === null || password === null || SESSION_APP_USERS.get(user) !== password) {
    context.stats.sessionEvent('badCredentials');
    return redirect(res, '/app/login?error=1');
  }
  const rotated = context.sessions.rotate(id, user);
  context.stats.sessionEvent('sessionsCreated');
  context.stats.sessionEvent('logins');
  redirect(res, '/app/dashboard', sessionCookie(rotated.id));
}

/** GET /app/dashboard: greets a logged-in user; anyone else is sent to the login form. */
export function appDashboardRoute(
  req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  _query: string,
  context: TargetContext,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendPrebuilt(res, GET_ONLY);
  const user = context.sessions.get(sessionIdOf(req.headers.cookie))?.user;
  if (user === undefined) {
    context.stats.sessionEvent('notLoggedIn');
    return redirect(res, '/app/login');
  }
  context.stats.sessionEvent('dashboardViews');
  sendHtml(res, 200, dashboardPage(user));
}

/** POST /app/logout: ends the session (if any) and sends the client to the login form. */
export function appLogoutRoute(
  req: IncomingMessage,
  res: ServerResponse,
  _param: string,
  _query: string,
  context: TargetContext,
): void {
  if (req.method !== 'POST') return sendPrebuilt(res, POST_ONLY);
  if (context.sessions.end(sessionIdOf(req.headers.cookie))) {
    context.stats.sessionEvent('logouts');
  }
  redirect(res, '/app/login', expiredSessionCookie());
}
