import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, test } from 'node:test';
import { runTs } from './testing/processes.ts';
import { harnessForFile } from './testing/sandbox_harness.ts';
import { scratchDir } from './testing/scratch.ts';

const h = harnessForFile();
let dir: string;
let file: string;
beforeEach(() => {
  dir = scratchDir('slicer-cache-');
  file = join(dir, 'tokens.json');
});

/** Runs one real worker process. */
function worker(env: Record<string, string> = {}) {
  return runTs(['src/testing/cache_worker.ts'], { PATH: process.env.PATH, ...h.sandbox.env, SLICER_CACHE_FILE: file, ...env }).then((
    r,
  ) => ({ ...r, out: r.out.trim() }));
}

describe('token cache shared across processes', () => {
  test('processes starting at once request one token between them, and later runs reuse it', async () => {
    const runs = await Promise.all(Array.from({ length: 4 }, () => worker()));
    for (const run of runs) assert.equal(run.code, 0, run.err);
    assert.equal(new Set(runs.map((r) => r.out)).size, 1, 'all got the same token');
    assert.equal(h.issued(), 1);
    const again = await worker();
    assert.equal(again.out, runs[0]?.out);
    assert.equal(h.issued(), 1, 'a one-off run reused the cached token');
    assert.ok(!existsSync(`${file}.lock`), 'the lock is released');
  });

  test('the file has mode 0600, holds no password, and is keyed by auth URL, user and scope', async () => {
    await worker();
    await worker({ WORKER_SCOPE: 'predict' });
    h.sandbox.store.addUser('second-user', 'second-password');
    await worker({ SLICER_USERNAME: 'second-user', SLICER_PASSWORD: 'second-password' });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(h.sandbox.env.SLICER_PASSWORD) && !text.includes('second-password'));
    const keys = Object.keys((JSON.parse(text) as { entries: Record<string, unknown> }).entries).sort();
    const { SLICER_AUTH_URL: url, SLICER_USERNAME: user, SLICER_SERVICE_ID: slicer, SLICER_PREDICT_SERVICE_ID: predict } = h.sandbox.env;
    assert.deepEqual(
      keys,
      [`${url} ${user} service_id=${predict}`, `${url} ${user} service_id=${slicer}`, `${url} second-user service_id=${slicer}`].sort(),
    );
    assert.equal(h.issued() + h.issued(predict), 3);
  });

  test('a corrupt or foreign file is ignored with a warning and left alone', async () => {
    for (const content of ['{not json', JSON.stringify({ some: 'other tool' })]) {
      writeFileSync(file, content, { mode: 0o600 }); // private, as the cache is: its content is the point here
      const run = await worker();
      assert.equal(run.code, 0, run.err);
      assert.match(run.err, /Ignoring the token cache .*not a slicer-auth token cache/);
      assert.equal(readFileSync(file, 'utf8'), content, 'the file was not overwritten');
    }
  });

  test('a cache file whose folder cannot be made is left unused with a warning, at once', {
    skip: !existsSync('/proc/self') && 'no /proc here',
  }, async () => {
    // Under /proc, mkdir answers ENOENT for a folder whose parent is there: Node's recursive mkdir then spins forever.
    const run = await worker({ SLICER_CACHE_FILE: '/proc/slicer-auth-test/tokens.json' });
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /^token [0-9a-f]{16}$/);
    assert.equal(
      run.err.trim(),
      '[slicer-auth] Cannot make the folder of the token cache /proc/slicer-auth-test/tokens.json (ENOENT); ' +
        'fetching tokens directly until the shared token store answers again',
    );
    assert.equal(h.issued(), 1);
  });

  test('a lock left by a crashed process does not keep others waiting', async () => {
    // The pid of a process that has exited: spawnSync returns once it is gone.
    writeFileSync(`${file}.lock`, String(spawnSync(process.execPath, ['-e', '']).pid));
    const started = performance.now();
    const run = await worker();
    assert.equal(run.code, 0, run.err);
    assert.ok(performance.now() - started < 10_000);
    assert.equal(h.issued(), 1);
  });

  test('a token near its expiry is not reused from the file', async () => {
    h.sandbox.store.setLifetime(60);
    const first = await worker();
    h.advance(45); // 15 s left: inside the 30 s margin of a 60 s token
    const tokens = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { expiresAt: number }> };
    for (const entry of Object.values(tokens.entries)) entry.expiresAt -= 45_000; // the file's wall clock moves with the sandbox's
    writeFileSync(file, JSON.stringify(tokens));
    const second = await worker();
    assert.notEqual(second.out, first.out);
    assert.equal(h.issued(), 2);
  });
});

describe('untrusted cache files and locks', () => {
  const forged = () =>
    JSON.stringify({
      format: 'slicer-auth-token-cache',
      version: 1,
      entries: {
        [`${h.sandbox.env.SLICER_AUTH_URL} ${h.sandbox.env.SLICER_USERNAME} service_id=${h.sandbox.env.SLICER_SERVICE_ID}`]: {
          token: 'forged-token',
          expiresAt: Date.now() + 3600_000,
          lifetime: 3600_000,
        },
      },
    });

  for (
    const [what, prepare, warning] of [
      ['readable by others (0666)', () => chmodSync(file, 0o666), /group or others may read or write it \(mode 666/],
      ['owned by another user', () => chownSync(file, 65534, 65534), /belongs to another user/],
      ['a symbolic link', () => {
        renameSync(file, `${file}.target`);
        symlinkSync(`${file}.target`, file);
      }, /symbolic link/],
    ] as const
  ) {
    test(`a cache file ${what} is ignored with one warning, never read or overwritten`, async (t) => {
      if (what === 'owned by another user' && process.getuid?.() !== 0) return t.skip('needs root to chown');
      writeFileSync(file, forged(), { mode: 0o600 });
      prepare();
      const before = readFileSync(file, 'utf8');
      h.warnings.length = 0;
      const client = h.client({ cacheFile: file });
      const token = await client.getToken();
      assert.notEqual(token, 'forged-token');
      assert.equal(h.issued(), 1);
      assert.equal(readFileSync(file, 'utf8'), before, 'left as it was');
      assert.equal(h.warnings.filter((w) => warning.test(w)).length, 1, h.warnings.join('\n'));
    });
  }

  for (
    const [what, prepare] of [
      ['a dangling symbolic link', () => symlinkSync(join(dir, 'nowhere'), `${file}.lock`)],
      ['a directory', () => mkdirSync(`${file}.lock`)],
    ] as const
  ) {
    test(`a lock that is ${what} never makes a process wait`, async () => {
      prepare();
      h.warnings.length = 0;
      const started = performance.now();
      assert.ok(await h.client({ cacheFile: file }).getToken());
      assert.ok(performance.now() - started < 5_000, 'no long wait');
      assert.ok(h.warnings.some((w) => /lock .* is not a regular file/.test(w)), h.warnings.join('\n'));
    });
  }
});
