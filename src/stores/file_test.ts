/**
 * The file store in-process, on a fake wall clock (`file_cache_test.ts`
 * runs it across real processes): the file's exact content and mode, what
 * is refused and with which words, expiry on write, compare-and-delete, and
 * the lock file's edges (its owner gone, its age to the millisecond, a path
 * that is not a regular file).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { describe, test } from 'node:test';
import { createFileStore, denoCacheFlags, distrust } from './file.ts';
import { Secret } from '../redact.ts';
import { isDenoRefusal } from '../settings/deno_refusal.ts';
import type { StoreKey } from './store.ts';
import { scratchDir } from '../testing/scratch.ts';

const KEY: StoreKey = { authUrl: 'https://auth.example', username: 'u', scope: 'service_id=s' };
const grant = (token: string, expiresAt: number) => ({ token, expiresAt, lifetime: 60_000 });

/** A store in a fresh directory, on a wall clock the test sets. */
function setup() {
  const dir = scratchDir('file-store-');
  const file = join(dir, 'tokens.json');
  const s = { dir, file, wall: 1_000_000 };
  return Object.assign(s, { store: createFileStore(file, () => s.wall) });
}

/** Whether a path exists, a dangling link included. */
const present = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

const content = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

describe('file store', () => {
  test('writes one JSON file of mode 0600, keyed by auth URL, user and scope, described by its path', async () => {
    const s = setup();
    const umask = process.umask(0); // a permissive umask must not loosen the file
    try {
      await s.store.put(KEY, grant('mine', 2_000_000));
      await s.store.put({ ...KEY, scope: 'service_id=t' }, grant('other', 2_000_000));
    } finally {
      process.umask(umask);
    }
    assert.deepEqual(content(s.file), {
      format: 'slicer-auth-token-cache',
      version: 1,
      entries: {
        'https://auth.example u service_id=s': grant('mine', 2_000_000),
        'https://auth.example u service_id=t': grant('other', 2_000_000),
      },
    });
    assert.equal(statSync(s.file).mode & 0o777, 0o600);
    assert.deepEqual(await s.store.get(KEY), grant('mine', 2_000_000));
    assert.equal(s.store.description, `file ${s.file}`);
    assert.equal(s.store.kind, 'file');
  });

  test('a missing file reads as empty; entries whose token expired by the wall clock are dropped on the next write', async () => {
    const s = setup();
    assert.equal(await s.store.get(KEY), undefined);
    await s.store.put({ ...KEY, scope: 'a' }, grant('ends-now', 1_500_000));
    await s.store.put({ ...KEY, scope: 'b' }, grant('ends-later', 1_500_001));
    s.wall = 1_500_000;
    await s.store.put(KEY, grant('new', 2_000_000));
    assert.deepEqual(Object.keys((content(s.file) as { entries: object }).entries), [
      'https://auth.example u b',
      'https://auth.example u service_id=s',
    ]);
  });

  test('compare-and-delete removes only the token named; a missing entry is no error', async () => {
    const s = setup();
    await s.store.deleteIfSame(KEY, 'nothing');
    assert.equal(existsSync(s.file), false, 'nothing written');
    await s.store.put(KEY, grant('newer', 2_000_000));
    await s.store.deleteIfSame(KEY, 'older');
    assert.equal((await s.store.get(KEY))?.token, 'newer');
    await s.store.deleteIfSame(KEY, 'newer');
    assert.equal(await s.store.get(KEY), undefined);
  });

  test('with SLICER_STORE_KEY every entry is sealed for its place: no token in the file, and only such entries used', async () => {
    const s = setup();
    const keyed = (secret: string) => createFileStore(s.file, () => s.wall, new Secret(secret));
    const sealed = keyed('key-one');
    await sealed.put(KEY, grant('Q7secret', 2_000_000));
    const text = readFileSync(s.file, 'utf8');
    assert.ok(!text.includes('Q7secret'), text);
    const entries = (content(s.file) as { entries: Record<string, { sealed: string; expiresAt: number }> }).entries;
    assert.deepEqual(Object.keys(entries), ['https://auth.example u service_id=s']);
    assert.match(entries['https://auth.example u service_id=s']?.sealed ?? '', /^s2\.[\w-]+$/);
    assert.equal(entries['https://auth.example u service_id=s']?.expiresAt, 2_000_000, 'beside it, to drop it once expired');
    assert.deepEqual(await sealed.get(KEY), grant('Q7secret', 2_000_000));
    const holds = (why: string) => ({
      name: 'UntrustedEntryError',
      message: `The shared token store file ${s.file} holds an entry ${why}`,
    });
    await assert.rejects(s.store.get(KEY), holds('sealed with a key: set SLICER_STORE_KEY to use it'));
    const elsewhere = 'sealed with another SLICER_STORE_KEY, moved from another entry, or altered; ignoring it';
    await assert.rejects(keyed('key-two').get(KEY), holds(elsewhere));
    const moved = { ...KEY, scope: 'service_id=t' };
    writeFileSync(s.file, text.replace('service_id=s', 'service_id=t'));
    await assert.rejects(sealed.get(moved), holds(elsewhere));
    await s.store.put(KEY, grant('in-clear', 2_000_000)); // written without the key
    await assert.rejects(sealed.get(KEY), holds('that is not sealed with SLICER_STORE_KEY; ignoring it'));
    await sealed.deleteIfSame(KEY, 'in-clear');
    assert.equal((await s.store.get(KEY))?.token, 'in-clear', 'an entry it cannot use is not its to delete');
    await sealed.put(KEY, grant('next', 2_000_000));
    await sealed.deleteIfSame(KEY, 'other');
    assert.equal((await sealed.get(KEY))?.token, 'next');
    await sealed.deleteIfSame(KEY, 'next');
    assert.equal(await sealed.get(KEY), undefined);
    s.wall = 2_000_000;
    await sealed.put(KEY, grant('later', 3_000_000));
    assert.deepEqual(
      Object.keys((content(s.file) as { entries: object }).entries),
      ['https://auth.example u service_id=s'],
      'the moved one expired',
    );
  });

  test('a corrupt or foreign file is refused in so many words, and left as it is', async () => {
    for (const text of ['{"format": "slicer-auth-token-cache"', '{"format": "someone-else", "version": 1, "entries": {}}']) {
      const s = setup();
      writeFileSync(s.file, text, { mode: 0o600 });
      await assert.rejects(s.store.get(KEY), {
        message: `Ignoring the token cache ${s.file}: it is not a slicer-auth token cache (corrupt or foreign); remove it to use the cache`,
      });
      await assert.rejects(s.store.put(KEY, grant('t', 2_000_000)));
      assert.equal(readFileSync(s.file, 'utf8'), text);
    }
  });

  test('a path that is a folder is named so, with the fix; one that cannot be written is named with the system code', async () => {
    const s = setup();
    mkdirSync(s.file, { mode: 0o700 });
    await assert.rejects(s.store.get(KEY), {
      message: `Ignoring the token cache ${s.file}: it is a folder; it is neither read nor written; ` +
        `set SLICER_CACHE_FILE to a file, such as ${join(s.file, 'tokens.json')}`,
    });
    symlinkSync(join(s.dir, 'gone', 'dir'), join(s.dir, 'dangling'));
    const nowhere = join(s.dir, 'dangling', 'tokens.json'); // through a link to nothing: no directory can be made
    await assert.rejects(createFileStore(nowhere).put(KEY, grant('t', Date.now() + 60_000)), {
      message: `Cannot write the token cache ${nowhere} (ENOENT)`,
    });
  });

  test('a folder, a pipe, a file that is a symbolic link, too open, or (as root) another user’s is distrusted, saying why and the fix', (t) => {
    const s = setup();
    writeFileSync(s.file, '{}', { mode: 0o600 });
    assert.equal(distrust(s.file), undefined);
    assert.equal(distrust(join(s.dir, 'missing')), undefined);
    const fix = `chmod 600 ${s.file} as its owner, or remove it (it is recreated)`;
    chmodSync(s.file, 0o640);
    assert.deepEqual(distrust(s.file), { why: 'group or others may read or write it (mode 640)', fix });
    chmodSync(s.file, 0o600);
    const link = join(s.dir, 'link.json');
    symlinkSync(s.file, link);
    assert.deepEqual(distrust(link), {
      why: 'it is a symbolic link',
      fix: `chmod 600 ${link} as its owner, or remove it (it is recreated)`,
    });
    // A folder private to its owner is no file either; removing it is no fix.
    const folder = join(s.dir, 'cache');
    mkdirSync(folder, { mode: 0o700 });
    assert.deepEqual(distrust(folder), {
      why: 'it is a folder',
      fix: `set SLICER_CACHE_FILE to a file, such as ${join(folder, 'tokens.json')}`,
    });
    const pipe = join(s.dir, 'pipe');
    if (spawnSync('mkfifo', ['-m', '600', pipe]).status === 0) {
      // Read, it would keep the process waiting for a writer.
      assert.deepEqual(distrust(pipe), {
        why: 'it is no regular file (a pipe, a socket or a device)',
        fix: `set SLICER_CACHE_FILE to a file, such as ${join(s.dir, 'tokens.json')}`,
      });
    }
    if (process.getuid?.() !== 0) return t.skip('changing a file’s owner needs root');
    chownSync(s.file, 1, 1);
    assert.deepEqual(distrust(s.file), { why: 'it belongs to another user', fix });
  });

  test('the lock is a file holding the owner’s pid, taken once, released (twice is harmless), then free again', async () => {
    const s = setup();
    const release = await s.store.lock(KEY, 60_000);
    assert.ok(release);
    assert.equal(readFileSync(`${s.file}.lock`, 'utf8'), String(process.pid));
    assert.equal(await s.store.lock(KEY, 60_000), undefined, 'held by a live process');
    assert.equal(existsSync(`${s.file}.lock`), true, 'a live holder’s lock is left alone');
    await release();
    await release();
    assert.ok(await s.store.lock(KEY, 60_000));
  });

  test('a lock whose owner is gone is broken at once; a live owner’s lock is broken once older than the TTL, to the millisecond', async () => {
    const s = setup();
    const lock = `${s.file}.lock`;
    writeFileSync(lock, String(spawnSync(process.execPath, ['-e', '']).pid)); // that process has exited
    assert.equal(await s.store.lock(KEY, 60_000), undefined);
    assert.equal(existsSync(lock), false, 'broken');
    writeFileSync(lock, String(process.pid));
    const written = statSync(lock).mtimeMs;
    s.wall = written + 60_000;
    assert.equal(await s.store.lock(KEY, 60_000), undefined);
    assert.equal(existsSync(lock), true, 'exactly the TTL old: kept');
    s.wall = written + 60_001;
    assert.equal(await s.store.lock(KEY, 60_000), undefined);
    assert.equal(existsSync(lock), false, 'older than the TTL: broken');
    writeFileSync(lock, 'not a pid');
    s.wall = written;
    assert.equal(await s.store.lock(KEY, 60_000), undefined);
    assert.equal(existsSync(lock), true, 'no pid to check: kept until it is old');
  });

  test('a lock path that is not a regular file is refused; removed only once stale', async () => {
    const s = setup();
    const lock = `${s.file}.lock`;
    mkdirSync(lock);
    const refused = { message: `The token cache lock ${lock} is not a regular file; fetching a token without it` };
    s.wall = statSync(lock).mtimeMs;
    await assert.rejects(s.store.lock(KEY, 60_000), refused);
    assert.equal(existsSync(lock), true, 'a fresh directory is not ours to remove');
    s.wall += 60_001;
    await assert.rejects(s.store.lock(KEY, 60_000), refused);
    assert.equal(existsSync(lock), false, 'a stale empty directory is removed');
    symlinkSync(join(s.dir, 'nowhere'), lock);
    s.wall = lstatSync(lock).mtimeMs;
    await assert.rejects(s.store.lock(KEY, 60_000), refused);
    assert.equal(present(lock), true, 'a fresh link is left');
    s.wall += 60_001;
    await assert.rejects(s.store.lock(KEY, 60_000), refused);
    assert.equal(present(lock), false, 'a stale link is removed');
  });

  test('a directory that does not exist is made, mode 0700, by the lock or by a write', async () => {
    const s = setup();
    for (const first of ['lock', 'put'] as const) {
      const dir = join(s.dir, first, 'slicer-auth');
      const store = createFileStore(join(dir, 'tokens.json'), () => s.wall);
      if (first === 'lock') assert.ok(await store.lock(KEY, 60_000), 'the lock is taken');
      await store.put(KEY, grant('t', 2_000_000));
      assert.equal((await store.get(KEY))?.token, 't');
      assert.equal(statSync(dir).mode & 0o777, 0o700, first);
      assert.equal(statSync(join(s.dir, first)).mode & 0o777, 0o700, `${first}: every directory made`);
    }
  });

  test('a lock file that cannot be made (its name too long) is an error, not a wait', async () => {
    const s = setup();
    const store = createFileStore(join(s.dir, 'x'.repeat(251)), () => s.wall); // the file's name fits; with ".lock", not
    assert.equal(await store.get(KEY), undefined);
    await assert.rejects(store.lock(KEY, 60_000), { code: 'ENAMETOOLONG' });
  });

  test('a lock where no directory can be made (through a link to nothing) is an error, not a wait', async () => {
    const s = setup();
    symlinkSync(join(s.dir, 'gone', 'dir'), join(s.dir, 'dangling'));
    const file = join(s.dir, 'dangling', 'tokens.json');
    await assert.rejects(createFileStore(file, () => s.wall).lock(KEY, 60_000), {
      message: `Cannot make the folder of the token cache ${file} (ENOENT)`,
    });
    assert.equal(present(join(s.dir, 'gone')), false, 'nothing made');
  });
});

test("Deno's permission refusals are told by their name, and the flags that let a cache file be used name its folder and the user id", () => {
  for (const name of ['NotCapable', 'PermissionDenied']) assert.equal(isDenoRefusal(Object.assign(new Error('no'), { name })), true, name);
  for (const error of [Object.assign(new Error('no'), { code: 'EACCES' }), new Error('NotCapable'), undefined, null, 'NotCapable']) {
    assert.equal(isDenoRefusal(error), false, String(error));
  }
  assert.equal(
    denoCacheFlags('/home/ada/.cache/slicer-auth/tokens.json'),
    '--allow-read=/home/ada/.cache/slicer-auth --allow-write=/home/ada/.cache/slicer-auth --allow-sys=uid',
  );
});
