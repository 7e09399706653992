import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeFolders, nearestThere } from './folders.ts';
import { scratchDir } from './testing/scratch.ts';

const mode = (path: string) => statSync(path).mode & 0o777;

test('each missing folder is made with the mode given; one already there keeps its own', () => {
  const dir = scratchDir('folders-');
  const deep = join(dir, 'a', 'b', 'c');
  makeFolders(deep, 0o700);
  assert.deepEqual([join(dir, 'a'), join(dir, 'a', 'b'), deep].map(mode), [0o700, 0o700, 0o700]);
  chmodSync(deep, 0o755);
  makeFolders(deep, 0o700);
  assert.equal(mode(deep), 0o755, 'a folder there is left as it is');
  makeFolders(join(dir, 'a', 'd'), 0o700);
  assert.equal(mode(join(dir, 'a')), 0o700, 'its parent too');
  assert.ok(statSync(join(dir, 'a', 'd')).isDirectory());
});

test('a folder is made through a link to a folder', () => {
  const dir = scratchDir('folders-');
  mkdirSync(join(dir, 'real'));
  symlinkSync(join(dir, 'real'), join(dir, 'link'));
  makeFolders(join(dir, 'link', 'x', 'y'));
  assert.ok(statSync(join(dir, 'real', 'x', 'y')).isDirectory());
});

test('a file in the way is ENOTDIR, a link to nothing ENOENT, and nothing is made', () => {
  const dir = scratchDir('folders-');
  writeFileSync(join(dir, 'file'), '');
  assert.throws(() => makeFolders(join(dir, 'file')), {
    code: 'ENOTDIR',
    message: `ENOTDIR: not a directory, mkdir '${join(dir, 'file')}'`,
  });
  assert.throws(() => makeFolders(join(dir, 'file', 'sub')), { code: 'ENOTDIR' });
  symlinkSync(join(dir, 'gone', 'dir'), join(dir, 'dangling'));
  const through = join(dir, 'dangling');
  assert.throws(() => makeFolders(through), { code: 'ENOENT', message: `ENOENT: no such file or directory, mkdir '${through}'` });
  assert.throws(() => makeFolders(join(through, 'sub')), { code: 'ENOENT' });
  assert.equal(lstatSync(join(dir, 'gone'), { throwIfNoEntry: false }), undefined, "nothing made at the link's target");
});

test("a folder the system will not make is named with the system's code", { skip: !existsSync('/sys/kernel') && 'no /sys here' }, () => {
  // sysfs refuses a new folder: EPERM for root, EACCES for others; not ENOENT as under /proc.
  assert.throws(() => makeFolders('/sys/slicer-auth-test/sub'), { code: /^(EPERM|EACCES)$/, message: /mkdir '\/sys\/slicer-auth-test'/ });
});

test('where a path meets what is there: itself, else its nearest parent there, a file included', () => {
  const dir = scratchDir('folders-');
  writeFileSync(join(dir, 'file'), '');
  assert.equal(nearestThere(dir), dir);
  assert.equal(nearestThere(join(dir, 'a', 'b')), dir);
  assert.equal(nearestThere(join(dir, 'file')), join(dir, 'file'));
  assert.equal(nearestThere(join(dir, 'file', 'sub')), join(dir, 'file'));
});
