/**
 * A token list that grows as it is scrolled ("infinite scrolling"): it shows
 * its next part when its end comes into view, at once or once fetched. Such a
 * list is scrolled to its end until it no longer grows, and the boxes left
 * scrolled are kept for the look for a list read in parts (`list_parts.ts`).
 */
import type { JSHandle, Page, Request } from '@playwright/test';
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
 * Waits until the page has drawn so many frames from now, up to {@link SETTLE_MS}.
 *
 * @param page the page
 * @param count the frames
 */
export function framesDrawn(page: Page, count: number): Promise<void> {
  return page.waitForFunction((state) => ++state.drawn >= state.count, { drawn: 0, count }, { polling: 'raf', timeout: SETTLE_MS })
    .then(() => undefined, () => undefined);
}

/**
 * In the page, for one visit to it: `deep` lists every element under a node, those in the open shadow roots of web
 * components there too; `own` gives an element's own text; given a box and its elements (`deep`), `text` gives the
 * text in it and its shadow roots, and `shown` that of the elements showing in it, each with its place in its view;
 * `scrolled` holds the boxes that the last look found scrolled from their start; `plain` keeps, for each box found to
 * hold its whole list, the elements it held then (see `list_parts.ts`), as long as the page.
 */
export interface PageLooks {
  deep: (node: ParentNode) => Element[];
  own: (element: Element) => string;
  text: (box: Element, elements: Element[]) => string;
  shown: (box: Element, elements: Element[]) => string;
  scrolled: Element[];
  plain: WeakMap<Element, Set<Element>>;
}

/**
 * Makes {@link PageLooks} in the page.
 *
 * @param page the page
 * @returns the looks, in the page
 */
export function looksIn(page: Page): Promise<JSHandle<PageLooks>> {
  return page.evaluateHandle(() => {
    const kept = window as unknown as Record<symbol, WeakMap<Element, Set<Element>> | undefined>;
    const looks = { scrolled: [], plain: kept[Symbol.for('slicer-auth: plain boxes')] ??= new WeakMap() } as unknown as PageLooks;
    // Set apart from the literal: the TypeScript loader names a function written in one with a helper the page lacks.
    looks.deep = (node) => {
      const elements: Element[] = [];
      for (const trees = [node]; trees.length > 0;) {
        for (const element of (trees.pop() as ParentNode).querySelectorAll('*')) {
          elements.push(element);
          if (element.shadowRoot) trees.push(element.shadowRoot);
        }
      }
      return elements;
    };
    looks.own = (element) => [...element.childNodes].map((child) => child instanceof Text ? child.data : '').join('');
    looks.text = (box, elements) =>
      [box, ...elements.flatMap((element) => element.shadowRoot ?? [])].map((tree) => tree.textContent).join('\n');
    looks.shown = (box, elements) => {
      const view = box === (document.scrollingElement ?? document.documentElement)
        ? new DOMRect(0, 0, innerWidth, innerHeight)
        : box.getBoundingClientRect();
      return elements.flatMap((element) => {
        const text = looks.own(element).trim();
        if (!text) return [];
        const { left, top, right, bottom } = element.getBoundingClientRect();
        const showing = right > view.left && left < view.right && bottom > view.top && top < view.bottom;
        return showing ? [`${Math.round(left - view.left)}:${Math.round(top - view.top)}:${text}`] : [];
      }).sort().join('\n');
    };
    return looks;
  });
}

/**
 * Scrolls the page, and each box in it that scrolls (in a web component's open shadow root too), to its end as long
 * as that makes the page grow: a list that shows its next part when its end shows ("infinite scrolling"). The page
 * grows at once (see {@link QUIET_MS}), or starts a fetch by then and grows within {@link GROW_MS}; else it is whole.
 * A page with nothing below what shows costs one look, and one scrolled to its end that does not grow costs
 * {@link QUIET_MS}.
 *
 * @param page the page
 * @param looks the looks made in it ({@link looksIn}): its `scrolled` is left holding the boxes left scrolled from
 *   their start, as only such a box may be a list that keeps only the rows near what shows (`list_parts.ts`)
 * @returns whether a box is left so
 */
export async function scrollWhileGrowing(page: Page, looks: JSHandle<PageLooks>): Promise<boolean> {
  // The number of elements in the page, or -1 when nothing lies below what shows, and whether a box is scrolled from
  // its start; scrolled to the end first when asked.
  const look = (scroll: boolean) =>
    looks.evaluate((looks, scroll) => {
      const root = document.scrollingElement ?? document.documentElement;
      const elements = looks.deep(document);
      const boxes = [root, ...elements].filter((element) =>
        element.scrollHeight > element.clientHeight + 1 && (element === root || /auto|scroll/.test(getComputedStyle(element).overflowY))
      );
      const below = boxes.filter((box) => box.scrollTop + box.clientHeight < box.scrollHeight - 1);
      if (scroll) { for (const box of below) box.scrollTop = box.scrollHeight; }
      looks.scrolled = boxes.filter((box) => box.scrollTop > 0);
      return [below.length === 0 ? -1 : elements.length, looks.scrolled.length > 0] as const;
    }, scroll).catch(() => [-1, false] as const);
  const count = () => looks.evaluate((looks) => looks.deep(document).length).catch(() => -1);
  // Whether the page grew at once: its scroll and intersection handlers run as it draws its next frames.
  const settled = async (before: number) => {
    await Promise.all([systemClock.sleep(QUIET_MS), framesDrawn(page, 3)]);
    return (await count()) > before;
  };
  const growth = (before: number) =>
    page.waitForFunction(([looks, before]) => looks.deep(document).length > before, [looks, before] as const, { timeout: GROW_MS })
      .then(() => true, () => false);
  let [below, scrolled] = await look(false);
  for (let grown = 0; grown < MAX_GROWTHS && below >= 0; grown++, [below, scrolled] = await look(false)) {
    let fetching = false;
    const fetches = (request: Request) => void (fetching ||= ['fetch', 'xhr'].includes(request.resourceType()));
    page.on('request', fetches);
    try {
      // Once the page has drawn what it shows now: a list that has just grown must first see its end leave the view,
      // or the scroll brings it back into a view that it never left, and nothing is loaded.
      await framesDrawn(page, 2);
      const [before, scrolledToEnd] = await look(true);
      scrolled = scrolledToEnd;
      if (before < 0 || !(await settled(before)) && !(fetching && (await growth(before)))) break;
    } finally {
      page.off('request', fetches);
    }
  }
  return scrolled;
}
