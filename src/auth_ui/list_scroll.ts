/**
 * A token list that grows as it is scrolled ("infinite scrolling"): it shows
 * its next part when its end comes into view, at once or once fetched. Such a
 * list is scrolled to its end until it no longer grows.
 */
import type { Page, Request } from '@playwright/test';
import { systemClock } from '../clock.ts';

/** The most times a list is scrolled to its end: a page that grows for ever is then read as far as it shows. */
const MAX_GROWTHS = 100;

/**
 * How long a list scrolled to its end may take to grow, or to start fetching its next part, before it is taken as whole:
 * at least this long, and three frames drawn by the page (a loaded machine draws them late), up to {@link SETTLE_MS}.
 */
const QUIET_MS = 300;

/** The longest wait for the frames a page draws: a page in the background may draw none. */
const SETTLE_MS = 2_000;

/** How long a list that fetches its next part may take to show it. */
const GROW_MS = 10_000;

/**
 * Scrolls the page, and each box in it that scrolls, to its end as long as that makes the page grow: a list that
 * shows its next part when its end shows ("infinite scrolling"). The page grows at once (see {@link QUIET_MS}), or
 * starts a fetch by then and grows within {@link GROW_MS}; else it is whole. A page with nothing below what shows
 * costs one look, and one scrolled to its end that does not grow costs {@link QUIET_MS}.
 *
 * @param page the page
 */
export async function scrollWhileGrowing(page: Page): Promise<void> {
  // Waits until the page has drawn so many frames from now, up to SETTLE_MS.
  const frames = (count: number) =>
    page.waitForFunction((state) => ++state.drawn >= state.count, { drawn: 0, count }, { polling: 'raf', timeout: SETTLE_MS })
      .then(() => undefined, () => undefined);
  // The number of elements in the page, or -1 when nothing lies below what shows; scrolled to the end when asked.
  const look = (scroll: boolean) =>
    page.evaluate((scroll) => {
      const root = document.scrollingElement ?? document.documentElement;
      const below = [root, ...document.body.querySelectorAll('*')].filter((element) =>
        element.scrollTop + element.clientHeight < element.scrollHeight - 1 &&
        (element === root || /auto|scroll/.test(getComputedStyle(element).overflowY))
      );
      if (scroll) { for (const element of below) element.scrollTop = element.scrollHeight; }
      return below.length === 0 ? -1 : document.getElementsByTagName('*').length;
    }, scroll).catch(() => -1);
  const count = () => page.evaluate(() => document.getElementsByTagName('*').length).catch(() => -1);
  // Whether the page grew at once: its scroll and intersection handlers run as it draws its next frames.
  const settled = async (before: number) => {
    await Promise.all([systemClock.sleep(QUIET_MS), frames(3)]);
    return (await count()) > before;
  };
  const growth = (before: number) =>
    page.waitForFunction((before) => document.getElementsByTagName('*').length > before, before, { timeout: GROW_MS })
      .then(() => true, () => false);
  for (let grown = 0; grown < MAX_GROWTHS && (await look(false)) >= 0; grown++) {
    let fetching = false;
    const fetches = (request: Request) => void (fetching ||= ['fetch', 'xhr'].includes(request.resourceType()));
    page.on('request', fetches);
    try {
      // Once the page has drawn what it shows now: a list that has just grown must first see its end leave the view, or
      // the scroll brings it back into a view that it never left, and nothing is loaded.
      await frames(2);
      const before = await look(true);
      if (before < 0 || !(await settled(before)) && !(fetching && (await growth(before)))) return;
    } finally {
      page.off('request', fetches);
    }
  }
}
