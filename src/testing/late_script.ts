/**
 * A sandbox page whose script arrives late: `/static/ui.js` is held back for
 * the next page at a path until the page is touched (a click or an input
 * event) or `release()` is called. Such a page shows its controls and inputs
 * before their handlers exist, as a page whose deferred script is still
 * loading, or that is not yet hydrated, does.
 */
import type { Page } from '@playwright/test';

/** The held script of one page. */
export interface LateScript {
  /** Holds the script of the next page whose path is `pathname`. */
  arm(pathname: string): void;
  /** Lets a held script go, or keeps an armed one from being held; true when one was. */
  release(): boolean;
  /** How many pages were touched while their script was held. */
  early(): number;
}

/**
 * Installs the hold on a page.
 *
 * @param page the page
 * @returns the hold's controls
 */
export async function lateScript(page: Page): Promise<LateScript> {
  let early = 0;
  let armed: string | undefined;
  let held: (() => void) | undefined;
  // Also disarms: the page may be waited for before its script was even asked for.
  const release = () => {
    const holding = held !== undefined || armed !== undefined;
    armed = undefined;
    held?.();
    held = undefined;
    return holding;
  };
  await page.exposeBinding('slicerTestTouched', () => {
    if (!held) return;
    early++;
    release();
  });
  // Reports every click and input made before the page's own script ran; the node side counts those made while it was held.
  // No named functions inside the callback: a TypeScript loader may wrap them in helpers the page does not have.
  await page.addInitScript(() => {
    for (const type of ['click', 'input']) {
      document.addEventListener(type, () => {
        if (!document.documentElement.hasAttribute('data-ui-ran')) (window as unknown as { slicerTestTouched(): void }).slicerTestTouched();
      }, true);
    }
  });
  await page.route('**/static/ui.js', async (route) => {
    if (armed !== undefined && new URL(route.request().frame().url()).pathname === armed) {
      armed = undefined;
      await new Promise<void>((resolve) => (held = resolve));
    }
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\ndocument.documentElement.setAttribute('data-ui-ran', '');` });
  });
  return { arm: (pathname) => (armed = pathname), release, early: () => early };
}
