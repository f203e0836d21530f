/**
 * A response's final url, then its raw header names and values, each followed by "\n", then its
 * kept body, decoded as one UTF-8 text: one string to build and copy instead of a list, with no JSON to escape.
 * undici refuses a response whose header holds a CR, LF or NUL, so "\n" cannot occur inside one,
 * and a url holds none (WHATWG URL parsing strips or encodes them).
 * The text is built in a buffer reused for every response.
 */
export class ResponseText {
  #buffer = Buffer.allocUnsafeSlow(16 * 1024);

  /** The response as one text: url, header fields and body, as above. */
  encode(url: string, headers: readonly Buffer[] | null, body: readonly Buffer[]): string {
    let size = Buffer.byteLength(url) + 1;
    if (headers !== null) for (const field of headers) size += field.length + 1;
    for (const chunk of body) size += chunk.length;
    if (size > this.#buffer.length)
      this.#buffer = Buffer.allocUnsafeSlow(Math.max(size, this.#buffer.length * 2));
    const buffer = this.#buffer;
    let at = buffer.write(url, 0);
    buffer[at++] = 0x0a;
    if (headers !== null)
      for (const field of headers) {
        buffer.set(field, at);
        at += field.length;
        buffer[at++] = 0x0a;
      }
    for (const chunk of body) {
      buffer.set(chunk, at);
      at += chunk.length;
    }
    return buffer.toString('utf8', 0, at);
  }
}
