import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULTS } from './defaults.ts';
import { SETTINGS } from './settings/settings.ts';

test('every documented default of a code option names its DEFAULTS entry and shows its value', () => {
  const docs = ['client_types.ts', 'settings/config.ts', 'token_source/token_source.ts', 'stores/redis.ts']
    .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8')).join('\n');
  const named = [...docs.matchAll(/@default DEFAULTS\.(\w+) \(([^)]*)\)/g)].map(([, key, shown]) => [key, shown]);
  assert.ok(named.length >= 5, `${named.length} defaults documented`);
  for (const [key, shown] of named) {
    assert.ok(key && key in DEFAULTS, `@default names DEFAULTS.${key}, which does not exist`);
    assert.equal(shown, String(DEFAULTS[key as keyof typeof DEFAULTS]), `@default of ${key}`);
  }
  assert.equal(SETTINGS.refreshMarginSeconds.defaults, `\`${DEFAULTS.refreshMarginSeconds}\``, 'the README table shows the same default');
});
