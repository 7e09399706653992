/**
 * One process of the fleet tests: for FLEET_SECONDS, asks for a token of each
 * scope every 100 ms (the environment's configuration, SLICER_STORE_URL
 * included) and prints the fingerprints it saw, when it first saw each, and
 * the calls that failed.
 */
import { createHash } from 'node:crypto';
import process from 'node:process';
import { getToken } from '../../mod.ts';

/** Per scope: each token's fingerprint and when this process first saw it (wall ms). */
const seen: Record<string, [string, number][]> = { slicer: [], predict: [] };
let failures = 0;
const until = Date.now() + Number(process.env.FLEET_SECONDS ?? 5) * 1000;
while (Date.now() < until) {
  for (const scope of ['slicer', 'predict'] as const) {
    try {
      const print = createHash('sha256').update(await getToken(scope)).digest('hex').slice(0, 16);
      if (!seen[scope]?.some(([known]) => known === print)) seen[scope]?.push([print, Date.now()]);
    } catch {
      failures++;
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(JSON.stringify({ seen, failures }));
