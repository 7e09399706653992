/**
 * Which shared store a configuration selects, and what a Redis URL that
 * cannot be used reports (its code, never the URL's password).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Secret } from '../redact.ts';
import { createMemoryStore } from './memory.ts';
import { selectStore } from './select.ts';
import { StoreUnavailableError } from './store.ts';
import { scratchDir } from '../testing/scratch.ts';

const KEY = { authUrl: 'https://auth.example', username: 'u', scope: 'service_id=s' };
const wallNow = () => 0;

describe('selectStore', () => {
  test('the store given wins; then Redis; then the file; else none', async () => {
    const cacheFile = join(scratchDir('select-'), 'tokens.json');
    const given = createMemoryStore();
    assert.equal(selectStore({ store: given, storeUrl: new Secret('redis://127.0.0.1:1/0'), cacheFile, wallNow }), given);
    const redis = selectStore({ storeUrl: new Secret('redis://:pw@127.0.0.1:1/0'), cacheFile, wallNow });
    assert.equal(redis?.kind, 'redis');
    assert.equal(redis?.description, 'redis://127.0.0.1:1/0');
    await redis?.close?.();
    const file = selectStore({ cacheFile, wallNow });
    assert.equal(file?.kind, 'file');
    assert.equal(file?.description, `file ${cacheFile}`);
    assert.equal(selectStore({ wallNow }), undefined);
  });

  test('a Redis URL the driver refuses fails each operation with its code, never the password; closing is harmless', async () => {
    const store = selectStore({ storeUrl: new Secret('redis://:s3cret-pw@127.0.0.1:99999/0'), wallNow });
    assert.ok(store);
    const refused = (error: unknown) => {
      assert.ok(error instanceof StoreUnavailableError);
      assert.equal(error.message, 'The shared token store redis (a URL that does not parse) cannot be used (ERR_INVALID_URL)');
      return true;
    };
    await assert.rejects(store.get(KEY), refused);
    await assert.rejects(store.lock(KEY, 1_000), refused);
    await store.close?.();
  });
});
