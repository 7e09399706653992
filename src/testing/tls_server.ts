/**
 * An https server on loopback whose certificate is issued by a test-only CA
 * (`tls/test_only_ca.pem`) that no runtime trusts unless told to: a staging
 * service behind an organisation's own CA.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { Listening } from '../sandbox/serve.ts';

/** The test-only CA's certificate, for `NODE_EXTRA_CA_CERTS` or `DENO_CERT`. */
export const TEST_CA_FILE = fileURLToPath(new URL('./tls/test_only_ca.pem', import.meta.url));

/**
 * Listens with https on loopback, a certificate for 127.0.0.1 issued by the test-only CA.
 *
 * @param fetch the request handler
 * @returns the server once it listens; `origin` is `https://127.0.0.1:<port>`
 */
export function listenTls(fetch: (request: Request) => Response | Promise<Response>): Promise<Listening> {
  const file = (name: string) => readFileSync(new URL(`./tls/${name}`, import.meta.url));
  const serverOptions = { key: file('test_only_key.pem'), cert: file('test_only_cert.pem') };
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions }, (info: AddressInfo) => {
      resolve({
        origin: `https://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            (server as Server).close(() => done());
            (server as Server).closeAllConnections();
          }),
      });
    });
  });
}
