/**
 * Resolves once `check` holds, polling every few milliseconds; rejects after `timeoutMs`. For
 * tests that must act once a spawned run is under way, however long the machine takes to start it.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
