/**
 * A token list that keeps in the page only the rows near what shows (a
 * virtualized list): it is scrolled through from its start, part by part,
 * each row known by its place. Each page of a list is visited here, once or in
 * parts, after the walk has scrolled it as it grows (`list_scroll.ts`).
 */
import type { JSHandle, Locator, Page } from '@playwright/test';
import { framesDrawn, looksIn, type PageLooks, scrollWhileGrowing } from './list_scroll.ts';

/** The most parts a list that keeps only the rows near what shows is read in. */
const MAX_PARTS = 500;

/** How far apart two places may be and still be one: a row drawn again lands within a pixel or two of where it was. */
const SAME_PLACE_PX = 2;

/** Where an element stands in its list whatever the scroll: px from the left and the top of every box around it. */
export type Place = readonly [left: number, top: number];

/** The places of the elements read at the parts of one page, as {@link visitPage} scrolls through it. */
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

/** In the page: the box that keeps only the rows near what shows, every element it has held, its text, and the looks. */
interface InPage {
  box: Element;
  held: Set<Element>;
  text: string;
  looks: PageLooks;
}

/**
 * Visits the page showing, once scrolled as it grows ({@link scrollWhileGrowing}): once, or, when a box of it keeps in
 * the page only the rows near what shows (a virtualized list, as react-window, TanStack Virtual or a data grid draws
 * one, or vue-virtual-scroller and Angular CDK from a pool of row elements), at each part of that box from its start,
 * four fifths of its height apart, until its end or a part where it draws no element it has not held and its text
 * stays the same (a box that merely changed as it was scrolled holds its whole list), or until the visit says to stop
 * (the box then left where it showed). A box is such a list when, scrolled back to its start, it holds elements it did
 * not hold before or other text (see {@link recyclingBox}).
 *
 * @param page the page
 * @param visit called once with no places, or at each part with the places seen at the parts before (a row shown at
 *   one part may show at the next: {@link SeenPlaces} tells it); true stops the visits
 * @returns true when a visit stopped it
 */
export async function visitPage(page: Page, visit: (seen?: SeenPlaces) => Promise<boolean>): Promise<boolean> {
  // A page that navigates meanwhile has no such box: it is visited as it shows.
  const looks = await looksIn(page).catch(() => undefined);
  const scrolled = looks ? await scrollWhileGrowing(page, looks) : false;
  const recycling = looks && scrolled ? await recyclingBox(page, looks).catch(() => undefined) : undefined;
  void looks?.dispose().catch(() => undefined);
  if (!recycling) return await visit();
  try {
    const seen = new SeenPlaces();
    for (let part = 0; part < MAX_PARTS; part++) {
      if (await visit(seen)) return true;
      const moved = await recycling.evaluate((recycling) => {
        const { box } = recycling;
        const before = box.scrollTop;
        box.scrollTop += Math.max(1, Math.floor(box.clientHeight * 0.8));
        return box.scrollTop > before;
      });
      if (!moved) return false;
      await framesDrawn(page, 3);
      const drew = await recycling.evaluate((recycling) => {
        const { box, held, text, looks } = recycling;
        const elements = looks.deep(box);
        const drawn = elements.filter((element) => !held.has(element));
        for (const element of drawn) held.add(element);
        recycling.text = looks.text(box, elements);
        return drawn.length > 0 || recycling.text !== text;
      });
      if (!drew) return false;
    }
    return false;
  } finally {
    await recycling.dispose();
  }
}

/** In the page: what a box left scrolled held there, and whether, scrolled back to its start, it drew other rows. */
interface Held {
  elements: Set<Element>;
  text: string;
  shown: string;
  top: number;
  drew?: boolean;
}

/**
 * The box that keeps in the page only the rows near what shows: of the boxes the walk left scrolled (the page's own
 * among them, and those in web components' open shadow roots), the innermost that, scrolled back to its start, holds
 * elements it did not hold before, or shows other text in its elements and, scrolled back to where it was, shows there
 * what it showed (a pool's rows given other names; a clock or a count that changes by itself does not show what it
 * showed). That box is left at its start, the others where they were (a list scrolled to its end is not scrolled
 * through again). A box found to hold its whole list is looked at again only once it holds other elements than it
 * held then: a page polled while it stays the same is not scrolled back and forth.
 *
 * @param page the page
 * @param looks the looks made in it, holding the boxes left scrolled
 * @returns the box and the elements it has held, in the page; undefined when no box scrolls so
 */
async function recyclingBox(page: Page, looks: JSHandle<PageLooks>): Promise<JSHandle<InPage> | undefined> {
  const held = await looks.evaluateHandle((looks) => {
    const held = new Map<Element, Held>();
    for (const box of looks.scrolled) {
      if (!box.isConnected || box.scrollTop === 0) continue;
      const elements = looks.deep(box);
      const kept = looks.plain.get(box);
      if (kept && elements.every((element) => kept.has(element))) continue;
      held.set(box, {
        elements: new Set(elements),
        text: looks.text(box, elements),
        shown: looks.shown(box, elements),
        top: box.scrollTop,
      });
    }
    for (const box of held.keys()) box.scrollTop = 0;
    return held;
  });
  try {
    if (await held.evaluate((held) => held.size === 0)) return undefined;
    await framesDrawn(page, 3);
    // The boxes that show other text only are scrolled back to where they were, to see whether they show what they
    // showed there again.
    const retold = await held.evaluate((held, looks) => {
      let retold = 0;
      for (const [box, was] of held) {
        const elements = looks.deep(box);
        if (elements.some((element) => !was.elements.has(element))) was.drew = true;
        else if (looks.text(box, elements) === was.text) was.drew = false;
        else [box.scrollTop, retold] = [was.top, retold + 1];
      }
      return retold;
    }, looks);
    if (retold > 0) {
      await framesDrawn(page, 3);
      await held.evaluate((held, looks) => {
        for (const [box, was] of held) {
          if (was.drew !== undefined) continue;
          was.drew = looks.shown(box, looks.deep(box)) === was.shown;
          if (was.drew) box.scrollTop = 0;
        }
      }, looks);
      await framesDrawn(page, 3);
    }
    const recycling: JSHandle<InPage | undefined> = await held.evaluateHandle((held, looks) => {
      const drew = [...held].filter(([, was]) => was.drew).map(([box]) => box);
      for (const [box, was] of held) if (!was.drew) looks.plain.set(box, was.elements);
      // The innermost: around no other, its shadow roots' boxes counted as within it.
      const box = drew.find((box) =>
        !drew.some((other) => {
          for (let node: Node | null = other === box ? null : other; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
            if (node === box) return true;
          }
          return false;
        })
      );
      for (const [other, { top }] of held) if (other !== box) other.scrollTop = top;
      if (!box) return undefined;
      const { elements } = held.get(box) as Held;
      const now = looks.deep(box);
      for (const element of now) elements.add(element);
      return { box, held: elements, text: looks.text(box, now), looks };
    }, looks);
    if (await recycling.evaluate((recycling) => recycling !== undefined)) return recycling as JSHandle<InPage>;
    await recycling.dispose();
    return undefined;
  } finally {
    await held.dispose();
  }
}
