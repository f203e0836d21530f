/**
 * The one way outputs send to a receiver: an HTTP POST of a payload with the output's headers
 * (Node's fetch, apart from the load's own connections). Anything but a 2xx is a refusal whose
 * message says the status and the start of the receiver's answer.
 */

/** Most of a refusal's answer quoted in its message. */
const ANSWER_CHARS = 200;

/** POSTs `body`; rejects with the receiver's refusal or the network's error. */
export async function postPayload(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: Uint8Array | string,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal });
  } catch (error) {
    throw new Error(networkReason(error), { cause: error });
  }
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  const answer = (await startOf(response)).trim().replace(/\s+/g, ' ');
  throw new Error(
    `the receiver answered ${response.status}${answer === '' ? '' : `: ${answer.slice(0, ANSWER_CHARS)}`}`,
  );
}

/** The first ANSWER_CHARS-odd characters of an answer: a receiver's body is read no further. */
async function startOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < ANSWER_CHARS) {
      const chunk = (await reader.read()) as { done: boolean; value?: Uint8Array };
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
  } catch {
    // The start read so far is the answer.
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

/** fetch's "fetch failed" made useful: the cause's code (ECONNREFUSED…) or message. */
function networkReason(error: unknown): string {
  const cause =
    error instanceof Error
      ? (error.cause as { code?: string; message?: string } | undefined)
      : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
