import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { scratchDir } from '../src/testing/scratch.ts';
import { openLogin, SAVED_LOGIN_MAX_AGE_MS, saveLogin, type StorageState } from './saved_login.ts';

const root = scratchDir('saved-login-');
let n = 0;
/** A path in a folder of its own that does not exist yet. */
const fresh = () => join(root, `case-${++n}`, '.auth', 'ui-state.json');

const SESSION = 'Qm9vdHN0cmFwLXNlc3Npb24tdmFsdWUtMTIzNDU2';
const state: StorageState = {
  cookies: [{
    name: 'sid',
    value: SESSION,
    domain: '127.0.0.1',
    path: '/',
    expires: -1,
    httpOnly: true,
    secure: false,
    sameSite: 'Strict',
  }],
  origins: [{ origin: 'http://127.0.0.1:8787', localStorage: [{ name: 'csrf', value: 'local-storage-value' }] }],
};
const owner = { authUrl: 'http://127.0.0.1:8787', username: 'nightly-bot', password: 'Pa55 +&% word' };
const mtime = (path: string) => statSync(path).mtimeMs;

describe('the saved browser login', () => {
  test('is sealed: the file holds no cookie, no local storage and no name of either; it opens for its owner', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    const text = readFileSync(path, 'utf8');
    assert.match(text, /^s2\.[A-Za-z0-9_-]+$/);
    for (const clear of [SESSION, 'local-storage-value', 'cookies', 'sid', '127.0.0.1', owner.username, owner.password]) {
      assert.ok(!text.includes(clear), `"${clear}" is in the file`);
    }
    assert.deepEqual(await openLogin(path, owner, mtime(path)), state);
  });

  test('is written 0600 in a 0700 folder, closing a file and folder an earlier version left open; its note of the owner goes', async () => {
    const path = fresh();
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o755 });
    chmodSync(join(path, '..'), 0o755);
    writeFileSync(path, JSON.stringify(state), { mode: 0o644 });
    writeFileSync(`${path}.meta.json`, `${owner.authUrl} ${owner.username}`, { mode: 0o600 });
    await saveLogin(path, state, owner);
    assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(existsSync(`${path}.meta.json`), false);
  });

  test('does not open for another service, user or password', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    const now = mtime(path);
    assert.equal(await openLogin(path, { ...owner, authUrl: 'http://127.0.0.1:8788' }, now), undefined);
    assert.equal(await openLogin(path, { ...owner, username: 'nightly-bot2' }, now), undefined);
    assert.equal(await openLogin(path, { ...owner, password: `${owner.password}.` }, now), undefined);
  });

  test('is not used altered by one character, in clear as an earlier version wrote it, or missing', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    const sealed = readFileSync(path, 'utf8');
    const at = Math.floor(sealed.length / 2);
    writeFileSync(path, `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`);
    assert.equal(await openLogin(path, owner, mtime(path)), undefined);
    writeFileSync(path, JSON.stringify(state));
    assert.equal(await openLogin(path, owner, mtime(path)), undefined);
    assert.equal(await openLogin(fresh(), owner, 0), undefined);
  });

  test('is used until it is a token lifetime old', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    const saved = mtime(path);
    assert.deepEqual(await openLogin(path, owner, saved + SAVED_LOGIN_MAX_AGE_MS - 1), state);
    assert.equal(await openLogin(path, owner, saved + SAVED_LOGIN_MAX_AGE_MS), undefined);
  });

  test('is not used when its file or its folder is open to others', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    chmodSync(path, 0o640);
    assert.equal(await openLogin(path, owner, mtime(path)), undefined);
    chmodSync(path, 0o600);
    chmodSync(join(path, '..'), 0o705);
    assert.equal(await openLogin(path, owner, mtime(path)), undefined);
    chmodSync(join(path, '..'), 0o700);
    assert.deepEqual(await openLogin(path, owner, mtime(path)), state);
  });
});
