/**
 * The session app's catalogue: GET /app/products, a JSON list large enough to be worth
 * compressing (2 KiB, 400 bytes gzipped), sent gzip-compressed to clients whose Accept-Encoding
 * allows it, and GET /app/products/:id. Both versions of the list are built once, at startup.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { acceptsGzip } from './accept-encoding.js';
import {
  GET_ONLY,
  prebuild,
  prebuildJson,
  sendPrebuilt,
  type PrebuiltResponse,
} from './respond.js';

/** One product of the catalogue. */
export interface Product {
  readonly id: number;
  readonly name: string;
  readonly price: number;
}

/** The first product id; the catalogue's ids are consecutive from it. */
export const FIRST_PRODUCT_ID = 1070;

const ADJECTIVES = [
  'Sturdy',
  'Compact',
  'Deluxe',
  'Quiet',
  'Rapid',
  'Classic',
  'Foldable',
  'Smart',
];
const NOUNS = ['kettle', 'lamp', 'backpack', 'headphones', 'umbrella'];

/** The 40 products (every adjective with every noun), the same on every start. */
export const PRODUCTS: readonly Product[] = ADJECTIVES.flatMap((adjective, a) =>
  NOUNS.map((noun, n) => {
    const index = a * NOUNS.length + n;
    return {
      id: FIRST_PRODUCT_ID + index,
      name: `${adjective} ${noun}`,
      // Whole cents divided once, so prices print as 11.99, not 11.990000000000002.
      price: (999 + ((index * 7) % 50) * 200) / 100,
    };
  }),
);

const LIST_JSON = JSON.stringify(PRODUCTS);
// Vary: caches must keep the two versions apart (RFC 9110 §12.5.5).
const LIST_IDENTITY = prebuild(200, 'application/json', LIST_JSON, { vary: 'Accept-Encoding' });
const GZIPPED = gzipSync(LIST_JSON);
const LIST_GZIP: PrebuiltResponse = {
  status: 200,
  headers: {
    ...LIST_IDENTITY.headers,
    'content-encoding': 'gzip',
    'content-length': GZIPPED.length,
  },
  body: GZIPPED,
};
// Keyed by the id's text, so '1070' is found and '01070', '1e3' or 'x' are not, with no parsing.
const BY_ID = new Map(PRODUCTS.map((product) => [String(product.id), prebuildJson(200, product)]));
const NO_SUCH_PRODUCT = prebuildJson(404, { error: 'no such product' });

/** GET /app/products: the catalogue, gzip when the client accepts it. */
export function productsRoute(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendPrebuilt(res, GET_ONLY);
  sendPrebuilt(res, acceptsGzip(req.headers['accept-encoding']) ? LIST_GZIP : LIST_IDENTITY);
}

/** GET /app/products/:id: one product, 404 for an id not in the catalogue. */
export function productRoute(req: IncomingMessage, res: ServerResponse, id: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendPrebuilt(res, GET_ONLY);
  sendPrebuilt(res, BY_ID.get(id) ?? NO_SUCH_PRODUCT);
}
