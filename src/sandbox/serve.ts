/**
 * Binds a fetch handler to 127.0.0.1 on Node, Deno and Bun (through
 * `@hono/node-server`, which all three run), and closes it completely.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** A listening server. */
export interface Listening {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Stops listening and drops idle keep-alive connections. */
  close(): Promise<void>;
}

/**
 * Listens on loopback.
 *
 * @param fetch the request handler
 * @param port the port; 0 picks a free one
 * @returns the server once it listens
 */
export function listen(fetch: (request: Request) => Response | Promise<Response>, port = 0): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', reject);
  });
}
