import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './testing/processes.ts';

const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

test('package.json and deno.json agree on name, version, licence, exports and dependency versions', () => {
  const pkg = json('package.json');
  const deno = json('deno.json');
  assert.equal(deno.version, pkg.version);
  assert.equal(deno.license, pkg.license);
  assert.deepEqual(Object.keys(deno.exports), Object.keys(pkg.exports).filter((k) => k !== './package.json'));
  for (const [entry, source] of Object.entries(deno.exports as Record<string, string>)) {
    assert.equal(pkg.exports[entry].default, source.replace(/^\.\//, './dist/').replace(/\.ts$/, '.js'), entry);
    assert.equal(pkg.exports[entry].types, source.replace(/^\.\//, './dist/').replace(/\.ts$/, '.d.ts'), entry);
  }
  for (const [name, range] of Object.entries(pkg.dependencies as Record<string, string>)) {
    assert.equal(deno.imports[name], `npm:${name}@${range}`, name);
  }
  assert.ok(!('tsx' in pkg.dependencies), 'tsx is not a runtime dependency');
  assert.equal(pkg.peerDependenciesMeta['@playwright/test'].optional, true);
});

test('every relative link in the Markdown files resolves inside the repository', () => {
  for (const file of ['README.md', 'SECURITY.md', 'docs/contract.md']) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)) {
      const path = join(ROOT, file, '..', target as string);
      assert.ok(path.startsWith(ROOT), `${file} links outside the repository: ${target}`);
      assert.doesNotThrow(() => readFileSync(path), `${file} links to a missing file: ${target}`);
    }
  }
});
