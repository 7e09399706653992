/**
 * Binds a fetch handler to 127.0.0.1 on Node, Deno and Bun (through
 * `@hono/node-server`, which all three run), and closes it completely.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/**
 * How long an idle connection stays open (announced as `Keep-Alive: timeout=65`).
 * Node's default, 5 s, races the clients: fetch reuses an idle connection for
 * the announced time less 1 s, and a busy event loop can send a request on a
 * connection the server is closing at that moment (ECONNRESET, nodejs/undici#3141).
 * 65 s, nginx's order of magnitude, puts that moment past any idle gap of a script
 * or a test; close() drops idle connections at once.
 */
export const KEEP_ALIVE_MS = 65_000;

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
    const http = server as Server; // serve() makes a node:http Server when given no other createServer
    http.keepAliveTimeout = KEEP_ALIVE_MS;
    http.headersTimeout = KEEP_ALIVE_MS + 1000; // above keepAliveTimeout, or a reused connection may be cut at headersTimeout
    server.once('error', reject);
  });
}
