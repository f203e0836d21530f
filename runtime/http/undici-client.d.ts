/**
 * undici's Client module, imported by its own path (runtime/user/virtual-user.ts): the index
 * loads undici's whole API at every start (fetch, mocks, caches, every dispatcher), about 15 ms of
 * a one-request run, where the workers need only Client.dispatch(). The package has no `exports`
 * map, so the path is importable; it declares types for its index only, whose Client this module
 * exports. Without the index, Dispatcher.prototype lacks request() and the other API methods
 * (the index adds them): the workers never call them.
 */
declare module 'undici/lib/dispatcher/client.js' {
  import { Client } from 'undici';
  export = Client;
}

/**
 * undici's connector module (runtime/user/virtual-user.ts times connections with it), by its
 * own path for the same reason. Its connector returns the socket it opens, which undici's type
 * leaves out: the timing listens on it for TCP's `connect`.
 */
declare module 'undici/lib/core/connect.js' {
  import type { Socket } from 'node:net';
  import type { TLSSocket } from 'node:tls';
  import type buildConnectorBase from 'undici/types/connector.js';
  declare function buildConnector(
    options?: buildConnectorBase.BuildOptions,
  ): buildConnector.connector;
  declare namespace buildConnector {
    /** Opens a connection; calls back once it is ready, and returns its socket at once. */
    type connector = (
      options: buildConnectorBase.Options,
      callback: (...args: [null, Socket | TLSSocket] | [Error, null]) => void,
    ) => Socket;
  }
  export = buildConnector;
}
