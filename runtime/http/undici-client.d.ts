/**
 * undici's Client module, imported by its own path (runtime/worker/virtual-user.ts): the index
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
