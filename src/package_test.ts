import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, runTs } from './testing/processes.ts';

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

test('a release people can follow: the version has its CHANGELOG section, the package names its repository, the tag workflow publishes with provenance', () => {
  const pkg = json('package.json');
  const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
  assert.match(
    changelog,
    new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    'a dated section for this version',
  );
  assert.match(changelog, /^## \[Unreleased\]$/m);
  for (const field of ['repository', 'bugs', 'homepage']) assert.ok(pkg[field], `package.json names its ${field}`);
  assert.ok(pkg.files.includes('CHANGELOG.md'));
  assert.equal(pkg.peerDependenciesMeta['@opentelemetry/api'].optional, true, 'OpenTelemetry is never required');
  const release = readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8');
  assert.match(release, /tags:\s*\n\s*- 'v\*\.\*\.\*'/);
  assert.match(release, /npm publish --provenance --access public/);
  assert.match(release, /id-token: write/);
  assert.match(release, /deno@[\d.]+ publish$/m);
});

test('every relative link in the Markdown files resolves inside the repository', () => {
  for (const file of ['README.md', 'SECURITY.md', 'CHANGELOG.md', 'docs/contract.md']) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g)) {
      const path = join(ROOT, file, '..', target as string);
      assert.ok(path.startsWith(ROOT), `${file} links outside the repository: ${target}`);
      assert.doesNotThrow(() => readFileSync(path), `${file} links to a missing file: ${target}`);
    }
  }
});

test('importing the module does no work: no env file read, no sandbox, Hono, Playwright or Redis code loaded', async () => {
  // An explicit env file must be readable, so reading it at import time would fail the import.
  const run = await runTs(['--input-type=module', '-e', "await import('./mod.ts'); console.log('imported')"], {
    PATH: process.env.PATH,
    SLICER_ENV_FILE: '/nonexistent/slicer.env',
  });
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /imported/);
  // The static import graph of mod.ts, followed through relative imports.
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/^(?:import|export)\s(?:[^'"]*?from\s)?'([^']+)'/gm)) {
      if (spec?.startsWith('.')) visit(join(file, '..', spec));
      else if (spec) packages.add(spec);
    }
  };
  visit(join(ROOT, 'mod.ts'));
  assert.ok(seen.size > 8);
  for (const file of seen) assert.ok(!/\/src\/(sandbox|auth_ui|cli)\/|\/cli\.ts$/.test(file), `mod.ts reaches ${file}`);
  for (const name of packages) assert.ok(!/hono|playwright|redis/.test(name), `mod.ts loads ${name}`);
});

test("the README's error table lists every code once, each by the class mod.ts exports under its current name", async () => {
  const mod = (await import('../mod.ts')) as unknown as Record<string, unknown> & { ErrorCode: Record<string, string> };
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| `([A-Z_]+)` \| `(\w+)`/gm)].map(([, code, name]) => ({ code, name: name as string }));
  assert.deepEqual(rows.map((row) => row.code).sort(), Object.values(mod.ErrorCode).sort());
  for (const { name } of rows) {
    // A deprecated alias is exported too, under its former name: the class's own name tells them apart.
    assert.equal((mod[name] as { name?: string } | undefined)?.name, name, `README names ${name}, not a class mod.ts exports as such`);
  }
});
