/**
 * One process of the fleet tests: for FLEET_SECONDS, asks for a token of each
 * scope every 100 ms (the environment's configuration, SLICER_STORE_URL
 * included) and prints the fingerprints it saw, when each expires, and the
 * calls that failed. A token's expiry is the same instant in every process
 * (its requester's send time plus the lifetime, passed on through the store),
 * so gaps between expiries are gaps between token requests, however late a
 * starved process first saw a token.
 */
import { createHash } from 'node:crypto';
import process from 'node:process';
import { getTokenInfo } from '../../mod.ts';

/** Per scope: each token's fingerprint and when it expires (wall ms). */
const seen: Record<string, [string, number][]> = { slicer: [], predict: [] };
let failures = 0;
const until = Date.now() + Number(process.env.FLEET_SECONDS ?? 5) * 1000;
while (Date.now() < until) {
  for (const scope of ['slicer', 'predict'] as const) {
    try {
      const { token, expiresAt } = await getTokenInfo(scope);
      const print = createHash('sha256').update(token).digest('hex').slice(0, 16);
      if (!seen[scope]?.some(([known]) => known === print)) seen[scope]?.push([print, expiresAt?.getTime() ?? Number.NaN]);
    } catch {
      failures++;
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(JSON.stringify({ seen, failures }));
