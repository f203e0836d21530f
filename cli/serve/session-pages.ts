/**
 * The HTML of the session app: the login form and the dashboard. Nothing here is escaped, and
 * nothing needs to be: the only values inserted are base64url tokens and the names of
 * SESSION_APP_USERS (the session app greets no other user).
 */

const HEAD = '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>';

/** The login page: a form posting `_csrf`, `username` and `password` to /app/login. */
export function loginPage(csrfToken: string, failed: boolean): string {
  const error = failed
    ? '<p class="error" id="login-error">Unknown user or wrong password.</p>\n'
    : '';
  return `${HEAD}Sign in · barrage shop</title></head>
<body>
<h1>Sign in</h1>
${error}<form method="post" action="/app/login">
  <input type="hidden" name="_csrf" value="${csrfToken}">
  <label>User <input name="username" autocomplete="username" required></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
</body>
</html>
`;
}

/** The dashboard of a logged-in user, greeting them in `<h1 id="greeting">`. */
export function dashboardPage(user: string): string {
  return `${HEAD}Dashboard · barrage shop</title></head>
<body>
<h1 id="greeting">Hello, ${user}</h1>
<p><a href="/app/products">Products</a></p>
<form method="post" action="/app/logout"><button type="submit">Sign out</button></form>
</body>
</html>
`;
}
