/**
 * How a WebSocket route refuses an upgrade: the socket is no longer an HTTP response, so the
 * answer is a raw HTTP/1.1 response with a JSON error body, written with `socket.end()`.
 */

/** A raw HTTP/1.1 response refusing an upgrade with `error`, built once per refusal kind. */
export function upgradeRefusal(status: number, reason: string, error: string): string {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}
