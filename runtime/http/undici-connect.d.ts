/**
 * undici's CONNECT API (runtime/http/proxy-tunnel.ts opens proxy tunnels with it), by its own path
 * for the reason undici-client.d.ts gives: without undici's index, a Client has no connect()
 * method, so the function is called with the Client as `this`.
 */
declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  declare function connect(
    this: Dispatcher,
    options: Dispatcher.ConnectOptions,
  ): Promise<Dispatcher.ConnectData>;
  export = connect;
}
