/**
 * The gRPC service of issue 50's tests, served by @grpc/grpc-js on 127.0.0.1:0 from
 * test/fixtures/grpc/shop.proto: GetProduct (NOT_FOUND for an unknown id), ListProducts (a
 * server stream of `limit` products), AddProducts (a client stream) and Chat (bidi: each note
 * echoed). It counts what it saw, so tests hold barrage's counts to the server's.
 */
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

/** The shop proto's path. */
export const SHOP_PROTO = fileURLToPath(new URL('../fixtures/grpc/shop.proto', import.meta.url));

/** The products the catalogue knows, by id. */
export const PRODUCTS: ReadonlyMap<number, string> = new Map([
  [1, 'Anvil'],
  [2, 'Bellows'],
  [3, 'Crucible'],
]);

/** What the server saw. */
export interface ShopCounts {
  get: number;
  found: number;
  notFound: number;
  lists: number;
  listed: number;
  adds: number;
  added: number;
  chats: number;
  notes: number;
  /** Metadata `x-user` values seen by GetProduct. */
  users: string[];
}

/** A running shop server. */
export interface Shop {
  readonly port: number;
  readonly counts: ShopCounts;
  close(): Promise<void>;
}

interface Product {
  id: number;
  name: string;
  price: { cents: string; currency: string };
}

function product(id: number): Product {
  return {
    id,
    name: PRODUCTS.get(id) ?? `Product ${id}`,
    price: { cents: `${id * 100}`, currency: 'EUR' },
  };
}

/** Starts the shop; `tls` serves it over TLS with the given PEM key and certificate. */
export async function startShop(tls?: { key: Buffer; cert: Buffer }): Promise<Shop> {
  const definition = loadSync(SHOP_PROTO, { keepCase: true, longs: String, defaults: true });
  const shop = grpc.loadPackageDefinition(definition).shop as grpc.GrpcObject;
  const service = (shop.Catalog as grpc.ServiceClientConstructor).service;
  const counts: ShopCounts = {
    get: 0,
    found: 0,
    notFound: 0,
    lists: 0,
    listed: 0,
    adds: 0,
    added: 0,
    chats: 0,
    notes: 0,
    users: [],
  };
  const server = new grpc.Server();
  server.addService(service, {
    GetProduct(
      call: grpc.ServerUnaryCall<{ id: number }, Product>,
      callback: grpc.sendUnaryData<Product>,
    ) {
      counts.get++;
      const user = call.metadata.get('x-user')[0];
      if (typeof user === 'string') counts.users.push(user);
      if (!PRODUCTS.has(call.request.id)) {
        counts.notFound++;
        callback({ code: grpc.status.NOT_FOUND, details: `no product ${call.request.id}` });
        return;
      }
      counts.found++;
      callback(null, product(call.request.id));
    },
    ListProducts(call: grpc.ServerWritableStream<{ limit: number }, Product>) {
      counts.lists++;
      for (let id = 1; id <= call.request.limit; id++) {
        counts.listed++;
        call.write(product(id));
      }
      call.end();
    },
    AddProducts(
      call: grpc.ServerReadableStream<Product, { added: number }>,
      callback: grpc.sendUnaryData<{ added: number }>,
    ) {
      counts.adds++;
      let added = 0;
      call.on('data', () => {
        added++;
        counts.added++;
      });
      call.on('end', () => callback(null, { added }));
    },
    Chat(call: grpc.ServerDuplexStream<{ text: string }, { text: string }>) {
      counts.chats++;
      call.on('data', (note: { text: string }) => {
        counts.notes++;
        call.write({ text: `echo: ${note.text}` });
      });
      call.on('end', () => call.end());
    },
  });
  const credentials =
    tls === undefined
      ? grpc.ServerCredentials.createInsecure()
      : grpc.ServerCredentials.createSsl(
          null,
          [{ private_key: tls.key, cert_chain: tls.cert }],
          false,
        );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    port,
    counts,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}
