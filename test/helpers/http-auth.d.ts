/** The part of http-auth (a server-side Basic and Digest checker, no typings of its own) tests use. */
declare module 'http-auth' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** A Digest checker: `file` gives `user:realm:md5(user:realm:password)` lines. */
  export function digest(options: { realm: string; file: () => string }): {
    check(
      next: (req: IncomingMessage & { user?: string }, res: ServerResponse) => void,
    ): (req: IncomingMessage, res: ServerResponse) => void;
  };
}
