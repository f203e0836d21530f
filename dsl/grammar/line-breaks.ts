/**
 * CR, LF and NUL in a url or a header: HTTP/1.1 ends a header line at CR LF, so such a value
 * would split the request (header injection), and undici refuses it on every request. They are
 * refused at validation instead, named in words so that an error never prints the value itself
 * (it may be a secret: Authorization, Cookie, a token).
 */

const NAMES: Readonly<Record<string, string>> = {
  '\r': 'a carriage return',
  '\n': 'a line feed',
  '\0': 'a NUL character',
};

/** The CR, LF and NUL characters `text` holds, in words ("a carriage return and a line feed"), or undefined. */
export function lineBreaksIn(text: string): string | undefined {
  const found = Object.keys(NAMES).filter((c) => text.includes(c));
  if (found.length === 0) return undefined;
  const words = found.map((c) => NAMES[c]!);
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}
