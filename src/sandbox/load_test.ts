import assert from 'node:assert/strict';
import { test } from 'node:test';
import { harnessForFile } from '../testing/sandbox_harness.ts';

const h = harnessForFile();

test('200 concurrent clients get tokens and call both services; expired tokens are purged', async () => {
  const rounds = 3;
  const stored: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const results = await Promise.all(
      Array.from({ length: 200 }, async () => {
        // 400 token requests at once on a loaded machine can take longer than the 10 s token timeout, and a request
        // retried after it is a second token issued: this test counts tokens, so it waits as long as the answers take.
        const client = h.client({ tokenTimeoutMs: 300_000 });
        const [slicer, predict] = await Promise.all([
          // No ky timeout: 400 requests at once on a loaded machine may take longer than its 10 s default.
          client.authedFetch.post('load', { json: { round }, timeout: false }).json<{ status: string }>(),
          client.authedFetch('load', { scope: 'predict', timeout: false }).json<{ status: string }>(),
        ]);
        return [slicer.status, predict.status];
      }),
    );
    assert.ok(results.flat().every((status) => status === 'success'));
    stored.push(h.sandbox.store.stats().tokensStored);
    h.advance(3601); // every token of this round expires
  }
  assert.equal(h.issued() + h.issued(h.sandbox.env.SLICER_PREDICT_SERVICE_ID), rounds * 400);
  // Each round stores its 400 tokens; the expired ones of the round before are purged.
  assert.ok(stored.every((n) => n <= 400), `tokens stored per round: ${stored.join(', ')}`);
});
