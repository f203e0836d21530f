/**
 * Whether a request's Accept-Encoding lets the target answer with gzip. The header is
 * (RFC 9110 §12.5.3, §12.4.2)
 *
 *   Accept-Encoding = #( codings [ weight ] )
 *   codings         = content-coding / "identity" / "*"
 *   weight          = OWS ";" OWS "q=" qvalue
 *   qvalue          = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
 *
 * Codings are case-insensitive; "x-gzip" is gzip (§8.4.1.3). gzip is acceptable when it is listed
 * with q > 0, or, not listed, when "*" is listed with q > 0 (an explicit entry beats "*"). No
 * header or an empty one: identity, as compression middleware does. The list is split on ','
 * first, then each element is parsed strictly; one that does not parse is ignored.
 */

const ELEMENT =
  /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]*;[ \t]*[qQ]=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?))?$/;

/** q of `coding` in the parsed elements: its own entry, else '*', else 0. */
function weightOf(weights: ReadonlyMap<string, number>, coding: string): number {
  return weights.get(coding) ?? weights.get('*') ?? 0;
}

/** True when gzip may be sent to a client that sent `header` (see the grammar above). */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  const weights = new Map<string, number>();
  for (const raw of header.split(',')) {
    const element = raw.trim();
    if (element === '') continue; // #rule: empty list elements are allowed and ignored
    const match = ELEMENT.exec(element);
    if (match === null) continue;
    const coding = (match[1] ?? '').toLowerCase();
    const q = match[2] === undefined ? 1 : Number(match[2]);
    weights.set(coding === 'x-gzip' ? 'gzip' : coding, q);
  }
  return weightOf(weights, 'gzip') > 0;
}
