/**
 * Logs the browser in once and saves the storage state for the `ui` project,
 * once the page offers "Tokens and sessions" (else the `ui` project, which
 * depends on this, is skipped: a wrong SLICER_AUTH_URL or a UI that is down
 * fails here, in seconds).
 * The saved state is reused while younger than a token's lifetime (3600 s) and
 * for the same service and user; otherwise login is redone. With
 * `SLICER_UI_STORAGE_STATE` (single sign-on) nothing is done here.
 *
 * The saved state is a session that can create permanent tokens: it is
 * written 0600 in a 0700 folder, whatever the umask, and a folder or file
 * left open to others by an earlier version is closed first.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { control, loaded } from '../../src/auth_ui/controls.ts';
import { LoginForm } from '../../src/auth_ui/login_form.ts';
import { TokensPage } from '../../src/auth_ui/tokens_page.ts';
import { clause, expect, test } from '../fixtures.ts';
import { readToolSettings } from '../../src/tool_settings.ts';
import { STORAGE_STATE, STORAGE_STATE_MAX_AGE_MS } from '../paths.ts';

/** Writes a file readable by its owner only, in a folder only its owner may enter. */
function writePrivate(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600); // an existing file keeps its mode on write
}

test('5.3 creating, step 1: open {auth_url}/ and log in if asked', clause('5.3 creating step 1'), async ({ page, target }) => {
  test.skip(readToolSettings().uiStorageState !== undefined, 'SLICER_UI_STORAGE_STATE is used as it is');
  const meta = `${STORAGE_STATE}.meta.json`;
  const owner = `${target.authUrl} ${target.username}`;
  if (existsSync(STORAGE_STATE) && existsSync(meta)) {
    const fresh = Date.now() - statSync(STORAGE_STATE).mtimeMs < STORAGE_STATE_MAX_AGE_MS;
    const closed = (statSync(STORAGE_STATE).mode & 0o077) === 0 && (statSync(dirname(STORAGE_STATE)).mode & 0o077) === 0;
    if (fresh && closed && readFileSync(meta, 'utf8') === owner) return;
  }
  await new TokensPage(page, target.authUrl, { username: target.username, password: target.password }).home();
  expect(await new LoginForm(page).isShown(), 'the service no longer asks to log in').toBe(false);
  // Step 2's control shows on the loaded page, else no UI test can pass: they are skipped now, not each failed after
  // its whole timeout (an hour, over the UI tests and their retries).
  await loaded(page);
  await expect(
    control(page, 'Tokens and sessions'),
    `step 2: after logging in, ${target.authUrl}/ offers "Tokens and sessions" (is SLICER_AUTH_URL the authorization service's web UI?)`,
  ).toBeVisible();
  writePrivate(STORAGE_STATE, JSON.stringify(await page.context().storageState()));
  writePrivate(meta, owner);
});
