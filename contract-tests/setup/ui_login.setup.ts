/**
 * Logs the browser in once per run and saves the storage state for the `ui`
 * projects, once the page offers "Tokens and sessions" (else the `ui`
 * project, which depends on this, is skipped: a wrong SLICER_AUTH_URL or a UI
 * that is down fails here, in seconds).
 * The saved state is a session that can create permanent tokens: it is kept
 * sealed with the run's key, in a file and folder closed to others, and
 * removed at the run's end (`saved_login.ts`). With `SLICER_UI_STORAGE_STATE`
 * (single sign-on) nothing is done here.
 */
import { clause, expect, runId, test } from '../fixtures.ts';
import { savedLoginPath } from '../paths.ts';
import { saveLogin } from '../saved_login.ts';
import { control, loaded } from '../../src/auth_ui/controls.ts';
import { LoginForm } from '../../src/auth_ui/login_form.ts';
import { showFromMenu } from '../../src/auth_ui/menus.ts';
import { TokensPage } from '../../src/auth_ui/tokens_page.ts';
import { readToolSettings } from '../../src/settings/tool_settings.ts';

test('5.3 creating, step 1: open {auth_url}/ and log in if asked', clause('5.3 creating step 1'), async ({ page, target }) => {
  test.skip(readToolSettings().uiStorageState !== undefined, 'SLICER_UI_STORAGE_STATE is used as it is');
  await new TokensPage(page, target.authUrl, { username: target.username, password: target.password }).home();
  expect(await new LoginForm(page).isShown(), 'the service no longer asks to log in').toBe(false);
  // Step 2's control shows on the loaded page, from a closed menu as the steps show it, else no UI test can pass: they
  // are skipped now, not each failed after its whole timeout (an hour, over the UI tests and their retries).
  await loaded(page);
  await showFromMenu(page, 'Tokens and sessions');
  await expect(
    control(page, 'Tokens and sessions'),
    `step 2: after logging in, ${target.authUrl}/ offers "Tokens and sessions" (is SLICER_AUTH_URL the authorization service's web UI?)`,
  ).toBeVisible();
  await saveLogin(savedLoginPath(runId()), await page.context().storageState(), target);
});
