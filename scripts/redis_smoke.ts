/**
 * The Redis store under Node, Deno and Bun: two clients of a sandbox (whose
 * settings are in the environment, with SLICER_STORE_URL) share one token
 * through Redis, encrypted (with one key for every runtime, so they share
 * entries), and the process exits by itself (the store never
 * keeps it alive, and `await using` closes a client). Prints "redis ok <runtime>".
 */
import process from 'node:process';
import { createAuthClient } from '../mod.ts';

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
const options = {
  envFile: false as const,
  storeKey: 'smoke-key', /* the same in every runtime: they share entries */
  logger: { warn: (m: string) => console.error(m) },
};
const first = await createAuthClient(options).getToken('predict');
const second = await createAuthClient(options).getToken('predict');
if (first !== second) throw new Error('the second client did not read the token the first stored in Redis');
const answer = await createAuthClient(options).authedFetch('smoke', { scope: 'predict' }).json<{ status: string }>();
if (answer.status !== 'success') throw new Error('the stored token was refused');
// `await using` closes the client (and its Redis connection) at the end of the block; later calls are refused.
let closed;
{
  await using scoped = createAuthClient(options);
  if ((await scoped.getToken('predict')) !== first) throw new Error('the scoped client did not read the stored token');
  closed = scoped;
}
const refusal = await closed.getToken('predict').then(() => 'answered', (error: { code?: string }) => error.code);
if (refusal !== 'CLIENT_CLOSED') throw new Error(`a closed client gave ${refusal}`);
console.log(`redis ok ${runtime} ${process.env.SLICER_STORE_URL ? 'store' : ''}`);
