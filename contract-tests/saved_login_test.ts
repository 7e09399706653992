import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { beforeEach, describe, test } from 'node:test';
import { scratchDir } from '../src/testing/scratch.ts';
import { forgetEarlierLogin, forgetLogin, newLoginKey, openLogin, saveLogin, type StorageState } from './saved_login.ts';

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
const owner = { authUrl: 'http://127.0.0.1:8787', username: 'nightly-bot' };

describe("the run's saved browser login", () => {
  beforeEach(() => newLoginKey());

  test('is sealed: the file holds no cookie, no local storage and no name of either; it opens for its owner in the run', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    const text = readFileSync(path, 'utf8');
    assert.match(text, /^s2\.[A-Za-z0-9_-]+$/);
    for (const clear of [SESSION, 'local-storage-value', 'cookies', 'sid', '127.0.0.1', owner.username]) {
      assert.ok(!text.includes(clear), `"${clear}" is in the file`);
    }
    assert.deepEqual(await openLogin(path, owner), state);
  });

  test('is written 0600 in a 0700 folder, closing a file and folder left open to others', async () => {
    const path = fresh();
    mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
    chmodSync(dirname(path), 0o755);
    writeFileSync(path, JSON.stringify(state), { mode: 0o644 });
    await saveLogin(path, state, owner);
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  test('does not open in another run, or for another service or user', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    assert.equal(await openLogin(path, { ...owner, authUrl: 'http://127.0.0.1:8788' }), undefined);
    assert.equal(await openLogin(path, { ...owner, username: 'nightly-bot2' }), undefined);
    newLoginKey();
    assert.equal(await openLogin(path, owner), undefined);
  });

  test('is not used altered by one character, in clear as an earlier version wrote it, or missing', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    const sealed = readFileSync(path, 'utf8');
    const at = Math.floor(sealed.length / 2);
    writeFileSync(path, `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`);
    assert.equal(await openLogin(path, owner), undefined);
    writeFileSync(path, JSON.stringify(state));
    assert.equal(await openLogin(path, owner), undefined);
    assert.equal(await openLogin(fresh(), owner), undefined);
  });

  test('is not saved without a key for the run, and then none opens', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    delete process.env.SLICER_CONTRACT_LOGIN_KEY;
    assert.equal(await openLogin(path, owner), undefined);
    const other = fresh();
    await saveLogin(other, state, owner);
    assert.equal(existsSync(other), false);
  });

  test('is removed at the end of the run, and nothing beside it', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    writeFileSync(join(dirname(path), 'ui-state-another-run.json'), 'another run’s');
    forgetLogin(path);
    assert.equal(existsSync(path), false);
    assert.equal(readFileSync(join(dirname(path), 'ui-state-another-run.json'), 'utf8'), 'another run’s');
    forgetLogin(fresh()); // nothing saved: nothing to do
  });

  test('takes its folder with it when nothing else is in it', async () => {
    const path = fresh();
    await saveLogin(path, state, owner);
    forgetLogin(path);
    assert.equal(existsSync(dirname(path)), false);
    assert.equal(existsSync(dirname(dirname(path))), true, 'the folder around it is kept');
  });
});

describe('the login an earlier version saved in clear', () => {
  const leave = (meta: boolean) => {
    const path = fresh();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(state));
    if (meta) writeFileSync(`${path}.meta.json`, `${owner.authUrl} ${owner.username}`);
    return path;
  };

  test('is removed with the note of its owner', () => {
    const path = leave(true);
    forgetEarlierLogin(path, undefined);
    assert.deepEqual([path, `${path}.meta.json`].filter((file) => existsSync(file)), []);
  });

  test('is kept without that note, or when it is the storage state of the user’s own (SLICER_UI_STORAGE_STATE)', () => {
    const alone = leave(false);
    forgetEarlierLogin(alone, undefined);
    assert.equal(existsSync(alone), true);
    const own = leave(true);
    forgetEarlierLogin(own, join(dirname(own), '..', '.auth', 'ui-state.json'));
    assert.deepEqual([own, `${own}.meta.json`].filter((file) => existsSync(file)), [own, `${own}.meta.json`]);
  });
});
