import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../cli/main.ts';
import { Secret } from '../redact.ts';
import { createSeal, newStoreKey, SEALED_PREFIX } from './seal.ts';

test('a sealed entry opens only with the same key at the same place, and unaltered', async () => {
  const seal = await createSeal(new Secret('fleet passphrase'));
  const sealed = seal.seal('{"token":"t-1"}', 'slicer-auth:v2:token:aaa');
  assert.ok(sealed.startsWith(SEALED_PREFIX) && !sealed.includes('t-1'));
  assert.equal(seal.open(sealed, 'slicer-auth:v2:token:aaa'), '{"token":"t-1"}');
  assert.equal(seal.open(sealed, 'slicer-auth:v2:token:bbb'), undefined, 'moved to another key');
  assert.equal((await createSeal(new Secret('another passphrase'))).open(sealed, 'slicer-auth:v2:token:aaa'), undefined, 'another key');
  for (let at = SEALED_PREFIX.length; at < sealed.length; at += 7) {
    const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    assert.equal(seal.open(flipped, 'slicer-auth:v2:token:aaa'), undefined, `altered at ${at}`);
  }
  assert.equal(seal.open('p2.{"token":"t-1"}', 'slicer-auth:v2:token:aaa'), undefined, 'a plain entry');
  assert.equal(seal.open(`${SEALED_PREFIX}AAAA`, 'slicer-auth:v2:token:aaa'), undefined, 'too short to hold a tag');
  assert.notEqual(seal.seal('x', 'k'), seal.seal('x', 'k'), 'a fresh IV each time');
});

test('the key is derived, not random per seal: the same passphrase opens what another process sealed', async () => {
  const one = await createSeal(new Secret('same'));
  const two = await createSeal(new Secret('same'));
  assert.equal(two.open(one.seal('v', 'k'), 'k'), 'v');
});

test('an entry sealed by an earlier process with the same key still opens: the key derivation and format are fixed', async () => {
  // Sealed once with 'known answer' (salt "slicer-auth store seal v2", scrypt N=2^15 r=8 p=1, AES-256-GCM).
  const seal = await createSeal(new Secret('known answer'));
  assert.equal(seal.open('s2.a8k2fu1_LVOsLxJjOv-KMiSqZqa0Yv08DeFjBFIl4A6kEvqpAUnOEsg', 'slicer-auth:v2:token:kat'), '{"token":"t"}');
  assert.equal(seal.open('s2.wZVYGiiLE2IyTm87AYKgJSuJ1uS-MYe15LTaSw', 'k'), '', 'an empty text: IV and tag only');
  assert.equal(
    seal.open('s1.a8k2fu1_LVOsLxJjOv-KMiSqZqa0Yv08DeFjBFIl4A6kEvqpAUnOEsg', 'slicer-auth:v2:token:kat'),
    undefined,
    'another format',
  );
  assert.equal(seal.open(seal.seal('é ü', 'clé'), 'clé'), 'é ü', 'UTF-8 text and place');
});

test('store-key prints a new 32-byte base64url key each time, and takes no argument', async () => {
  const out: string[] = [];
  const io = { out: (line: string) => out.push(line), err: () => undefined, raw: () => undefined };
  assert.equal(await main(['store-key'], io), 0);
  assert.equal(await main(['store-key'], io), 0);
  assert.equal(out.length, 2);
  for (const key of out) assert.equal(Buffer.from(key, 'base64url').length, 32, key);
  assert.notEqual(out[0], out[1]);
  assert.match(newStoreKey(), /^[A-Za-z0-9_-]{43}$/);
  assert.equal(await main(['store-key', 'extra'], io), 2);
});
