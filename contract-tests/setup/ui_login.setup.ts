/**
 * Logs the browser in once and saves the storage state for the `ui` project.
 * The saved state is reused while younger than a token's lifetime (3600 s) and
 * for the same service and user; otherwise login is redone. With
 * `SLICER_UI_STORAGE_STATE` (single sign-on) nothing is done here.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { LoginForm } from '../../src/auth_ui/login_form.ts';
import { clause, expect, test } from '../fixtures.ts';
import { readToolSettings } from '../../src/tool_settings.ts';
import { STORAGE_STATE, STORAGE_STATE_MAX_AGE_MS } from '../paths.ts';

test('5.3 creating, step 1: open {auth_url}/ and log in if asked', clause('5.3 creating step 1'), async ({ page, target }) => {
  test.skip(readToolSettings().uiStorageState !== undefined, 'SLICER_UI_STORAGE_STATE is used as it is');
  const meta = `${STORAGE_STATE}.meta.json`;
  const owner = `${target.authUrl} ${target.username}`;
  if (existsSync(STORAGE_STATE) && existsSync(meta)) {
    const fresh = Date.now() - statSync(STORAGE_STATE).mtimeMs < STORAGE_STATE_MAX_AGE_MS;
    if (fresh && readFileSync(meta, 'utf8') === owner) return;
  }
  await page.goto(`${target.authUrl}/`);
  const form = new LoginForm(page);
  if (await form.isShown()) await form.logIn(target.username, target.password);
  await expect(new LoginForm(page).password).toHaveCount(0);
  mkdirSync(dirname(STORAGE_STATE), { recursive: true });
  await page.context().storageState({ path: STORAGE_STATE });
  writeFileSync(meta, owner);
});
