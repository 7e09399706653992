/** The loopback server under the sandbox and the tests' services. */
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { test } from 'node:test';
import { KEEP_ALIVE_MS, listen } from './serve.ts';

/** The `Keep-Alive` header of an answer, read with node:http (fetch does not show hop-by-hop headers reliably). */
function keepAliveOf(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { connection: 'keep-alive' } }, (response) => {
      response.resume();
      const value = response.headers['keep-alive'];
      response.on('end', () => resolve(typeof value === 'string' ? value : undefined));
    }).on('error', reject);
  });
}

test('idle connections are kept 65 s, not 5: a client reusing one after a few idle seconds does not race the server closing it', async () => {
  const server = await listen(() => new Response('ok'));
  try {
    assert.equal(KEEP_ALIVE_MS, 65_000);
    assert.equal(await keepAliveOf(`${server.origin}/`), 'timeout=65');
  } finally {
    await server.close();
  }
});
