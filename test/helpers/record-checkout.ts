/**
 * Records, with headless Chromium, a user's checkout on the session app (test/helpers/
 * session-app.ts): the login form with its CSRF token → the dashboard (a new token, in a meta
 * tag) → the product list → add to cart → an order (a server-generated id) → its checkout (that id
 * in the url and the body, the token in X-CSRF-Token). test/fixtures/har/chromium-checkout.har
 * was recorded with it:
 *
 *   node --import tsx -e "import('./test/helpers/record-checkout.ts').then(async (m) => {
 *     const { startSessionApp } = await import('./test/helpers/session-app.ts');
 *     const app = await startSessionApp(m.CHECKOUT_USERS);
 *     await m.recordCheckout(app, 'test/fixtures/har/chromium-checkout.har'); await app.close(); })"
 */
import { chromium } from 'playwright-core';
import { CHROMIUM } from './chromium.js';
import type { SessionApp } from './session-app.js';

/** The user who shops, and her password (what the replay must read from the environment). */
export const CHECKOUT_USERS = { alice: 'pw-alice-1' };

/** The shopping the user does on the dashboard, as the page's own script would. */
const SHOP = `(async () => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const json = { 'Content-Type': 'application/json', 'X-CSRF-Token': token };
  const products = await (await fetch('/api/products')).json();
  await fetch('/api/cart', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ productId: products[2].id }),
  });
  const order = await (await fetch('/api/orders', { method: 'POST', headers: json, body: '{}' })).json();
  const paid = await fetch('/api/orders/' + order.orderId + '/checkout', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ orderId: order.orderId, payment: 'card' }),
  });
  return (await paid.json()).status;
})()`;

/** Records the checkout into the HAR at `path`; resolves with the checkout's status ("paid"). */
export async function recordCheckout(app: SessionApp, path: string): Promise<string> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ recordHar: { path, content: 'embed' } });
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await page.fill('input[name=username]', 'alice');
    await page.fill('input[name=password]', CHECKOUT_USERS.alice);
    await Promise.all([page.waitForURL('**/dashboard'), page.click('button')]);
    const status = await page.evaluate(SHOP);
    await context.close();
    return String(status);
  } finally {
    await browser.close();
  }
}
