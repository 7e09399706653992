/**
 * A token list that grows as it is scrolled ("infinite scrolling"): it shows
 * its next part when its end comes into view, at once or once fetched. Such a
 * list is scrolled to its end until it no longer grows. And a list that keeps
 * in the page only the rows near what shows (a virtualized list): it is
 * scrolled through from its start, part by part, each row known by its place.
 */
import type { JSHandle, Locator, Page, Request } from '@playwright/test';
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

/** The most parts a list that keeps only the rows near what shows is read in. */
const MAX_PARTS = 500;

/** How far apart two places may be and still be one: a row drawn again lands within a pixel or two of where it was. */
const SAME_PLACE_PX = 2;

/**
 * Waits until the page has drawn so many frames from now, up to {@link SETTLE_MS}.
 *
 * @param page the page
 * @param count the frames
 */
function framesDrawn(page: Page, count: number): Promise<void> {
  return page.waitForFunction((state) => ++state.drawn >= state.count, { drawn: 0, count }, { polling: 'raf', timeout: SETTLE_MS })
    .then(() => undefined, () => undefined);
}

/** In the page: every element under a node, those in the open shadow roots of web components there too. */
type Deep = JSHandle<(node: ParentNode) => Element[]>;

/**
 * Makes {@link Deep} in the page: the looks for a list that scrolls see one that a web component draws.
 *
 * @param page the page
 * @returns the function, in the page
 */
function deepElements(page: Page): Promise<Deep> {
  return page.evaluateHandle(() => (node: ParentNode) => {
    const elements: Element[] = [];
    for (const trees = [node]; trees.length > 0;) {
      for (const element of (trees.pop() as ParentNode).querySelectorAll('*')) {
        elements.push(element);
        if (element.shadowRoot) trees.push(element.shadowRoot);
      }
    }
    return elements;
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
 * @returns whether a box of the page is left scrolled from its start: only such a box may be a list that keeps only
 *   the rows near what shows (see {@link visitParts})
 */
export async function scrollWhileGrowing(page: Page): Promise<boolean> {
  const deep = await deepElements(page).catch(() => undefined);
  if (!deep) return false;
  // The number of elements in the page, or -1 when nothing lies below what shows, and whether a box is scrolled from
  // its start; scrolled to the end first when asked.
  const look = (scroll: boolean) =>
    page.evaluate(([deep, scroll]) => {
      const root = document.scrollingElement ?? document.documentElement;
      const elements = deep(document);
      const boxes = [root, ...elements].filter((element) =>
        element.scrollHeight > element.clientHeight + 1 && (element === root || /auto|scroll/.test(getComputedStyle(element).overflowY))
      );
      const below = boxes.filter((box) => box.scrollTop + box.clientHeight < box.scrollHeight - 1);
      if (scroll) { for (const box of below) box.scrollTop = box.scrollHeight; }
      return [below.length === 0 ? -1 : elements.length, boxes.some((box) => box.scrollTop > 0)] as const;
    }, [deep, scroll] as const).catch(() => [-1, false] as const);
  const count = () => page.evaluate((deep) => deep(document).length, deep).catch(() => -1);
  // Whether the page grew at once: its scroll and intersection handlers run as it draws its next frames.
  const settled = async (before: number) => {
    await Promise.all([systemClock.sleep(QUIET_MS), framesDrawn(page, 3)]);
    return (await count()) > before;
  };
  const growth = (before: number) =>
    page.waitForFunction(([deep, before]) => deep(document).length > before, [deep, before] as const, { timeout: GROW_MS })
      .then(() => true, () => false);
  let [below, scrolled] = await look(false);
  try {
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
  } finally {
    void deep.dispose().catch(() => undefined);
  }
  return scrolled;
}

/** Where an element stands in its list whatever the scroll: px from the left and the top of every box around it. */
export type Place = readonly [left: number, top: number];

/** The places of the elements read at the parts of one page, as {@link visitParts} scrolls through it. */
export class SeenPlaces {
  readonly #seen = new Set<string>();

  /**
   * Records the places of elements read at one part.
   *
   * @param places their places ({@link placesOf})
   * @returns for each, whether it is new: not within {@link SAME_PLACE_PX} of a place recorded at an earlier part
   */
  fresh(places: readonly Place[]): boolean[] {
    const near = ([left, top]: Place) =>
      Array.from({ length: (2 * SAME_PLACE_PX + 1) ** 2 }, (_, index) => {
        const [x, y] = [index % (2 * SAME_PLACE_PX + 1), Math.floor(index / (2 * SAME_PLACE_PX + 1))];
        return `${Math.round(left) + x - SAME_PLACE_PX}:${Math.round(top) + y - SAME_PLACE_PX}`;
      });
    const fresh = places.map((place) => !near(place).some((key) => this.#seen.has(key)));
    for (const [left, top] of places) this.#seen.add(`${Math.round(left)}:${Math.round(top)}`);
    return fresh;
  }
}

/**
 * Where elements stand in their list whatever the scroll ({@link Place}): a row drawn again after a scroll, by a list
 * that keeps only the rows near what shows, stands where it stood.
 *
 * @param elements the elements
 * @returns their places, in their order
 */
export async function placesOf(elements: JSHandle<readonly Element[]>): Promise<Place[]> {
  return await elements.evaluate((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      let [left, top] = [box.left, box.top];
      for (let around = element.parentElement; around; around = around.parentElement) {
        left += around.scrollLeft;
        top += around.scrollTop;
      }
      return [left, top] as const;
    })
  );
}

/**
 * How many of some elements are new at a part of a page read in parts ({@link SeenPlaces}).
 *
 * @param elements the elements
 * @param seen the places seen at the parts before
 * @returns how many stand in no place seen before
 */
export async function countFresh(elements: Locator, seen: SeenPlaces): Promise<number> {
  const all: JSHandle<Element[]> = await elements.page().evaluateHandle(() => []);
  try {
    await elements.evaluateAll((elements, all) => void all.push(...elements), all);
    return seen.fresh(await placesOf(all)).filter(Boolean).length;
  } finally {
    await all.dispose();
  }
}

/** In the page: the box that keeps only the rows near what shows, every element it has held, and {@link Deep}. */
type Recycling = JSHandle<{ box: Element; held: Set<Element>; deep: (node: ParentNode) => Element[] } | undefined>;

/**
 * Visits the page showing: once, or, when a box of it keeps in the page only the rows near what shows (a virtualized
 * list, as react-window, TanStack Virtual or a data grid draws one), at each part of that box from its start, four
 * fifths of its height apart, until its end or a part where it draws no element it has not held (a box that merely
 * changed as it was scrolled holds its whole list), or until the visit says to stop (the box then left where it
 * showed). A box is such a list when, scrolled back to its start, it holds elements it did not hold before (see
 * {@link recyclingBox}).
 *
 * @param page the page
 * @param visit called once with no places, or at each part with the places seen at the parts before (a row shown at
 *   one part may show at the next: {@link SeenPlaces} tells it); true stops the visits
 * @param scrolled whether a box of the page is scrolled from its start ({@link scrollWhileGrowing} tells): if none is,
 *   the page is visited once without another look
 * @returns true when a visit stopped it
 */
export async function visitParts(page: Page, visit: (seen?: SeenPlaces) => Promise<boolean>, scrolled: boolean): Promise<boolean> {
  // A page that navigates meanwhile has no such box: it is visited as it shows.
  const recycling = scrolled ? await recyclingBox(page).catch(() => undefined) : undefined;
  if (!recycling) return await visit();
  try {
    const seen = new SeenPlaces();
    for (let part = 0; part < MAX_PARTS; part++) {
      if (await visit(seen)) return true;
      const moved = await recycling.evaluate((recycling) => {
        const { box } = recycling as { box: Element };
        const before = box.scrollTop;
        box.scrollTop += Math.max(1, Math.floor(box.clientHeight * 0.8));
        return box.scrollTop > before;
      });
      if (!moved) return false;
      await framesDrawn(page, 3);
      const drew = await recycling.evaluate((recycling) => {
        const { box, held, deep } = recycling as { box: Element; held: Set<Element>; deep: (node: ParentNode) => Element[] };
        const drawn = deep(box).filter((element) => !held.has(element));
        for (const element of drawn) held.add(element);
        return drawn.length > 0;
      });
      if (!drew) return false;
    }
    return false;
  } finally {
    await recycling.dispose();
  }
}

/**
 * The box that keeps in the page only the rows near what shows: of the boxes that scroll and are scrolled (the page's
 * own among them, and those in web components' open shadow roots), the innermost that, scrolled back to its start,
 * holds elements it did not hold before. That box is left at its start, the others where they were (a list scrolled
 * to its end is not scrolled through again).
 *
 * @param page the page
 * @returns the box and the elements it has held, in the page; undefined when no box scrolls so
 */
async function recyclingBox(page: Page): Promise<Recycling | undefined> {
  const deep = await deepElements(page);
  const held = await page.evaluateHandle((deep) => {
    const root = document.scrollingElement ?? document.documentElement;
    const boxes = [root, ...deep(document)].filter((element) =>
      element.scrollHeight > element.clientHeight + 1 && element.scrollTop > 0 &&
      (element === root || /auto|scroll/.test(getComputedStyle(element).overflowY))
    );
    const held = new Map(boxes.map((box) => [box, { elements: new Set(deep(box)), top: box.scrollTop }]));
    for (const box of boxes) box.scrollTop = 0;
    return held;
  }, deep);
  try {
    if (await held.evaluate((held) => held.size === 0)) return undefined;
    await framesDrawn(page, 3);
    const recycling: Recycling = await held.evaluateHandle((held, deep) => {
      const drawn = [...held].filter(([box, { elements }]) => deep(box).some((element) => !elements.has(element))).map(([box]) => box);
      // The innermost: around no other, its shadow roots' boxes counted as within it.
      const box = drawn.find((box) =>
        !drawn.some((other) => {
          for (let node: Node | null = other === box ? null : other; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
            if (node === box) return true;
          }
          return false;
        })
      );
      for (const [other, { top }] of held) if (other !== box) other.scrollTop = top;
      if (!box) return undefined;
      const { elements } = held.get(box) as { elements: Set<Element> };
      for (const element of deep(box)) elements.add(element);
      return { box, held: elements, deep };
    }, deep);
    if (await recycling.evaluate((recycling) => recycling !== undefined)) return recycling;
    await recycling.dispose();
    return undefined;
  } finally {
    await Promise.all([held.dispose(), deep.dispose()]);
  }
}
