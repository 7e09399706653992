import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from '@playwright/test';
import { trailStart, turnedFrom } from './list_trail.ts';

/** A browser page as the trail sees it: its address, set by the test as "Next" would change it. */
function browsing(first: string) {
  let address = first;
  const page = { url: () => address } as unknown as Page;
  /** Chooses "Next": the page shows another address. */
  const next = (to: string) => {
    const from = address;
    address = to;
    turnedFrom(page, from);
  };
  const open = (to: string) => (address = to);
  return { page, next, open };
}

test('the trail leads back from any page that "Next" led to, to the address the pages began on', () => {
  const { page, next, open } = browsing('https://auth.test/tokens');
  assert.equal(trailStart(page), 'https://auth.test/tokens', 'a page that "Next" did not lead to is its own start');
  next('https://auth.test/tokens?after=5');
  next('https://auth.test/tokens?after=10');
  assert.equal(trailStart(page), 'https://auth.test/tokens');
  open('https://auth.test/tokens?after=5');
  assert.equal(trailStart(page), 'https://auth.test/tokens', 'from a page in the middle too');
  open('https://auth.test/tokens?status=revoked');
  assert.equal(trailStart(page), 'https://auth.test/tokens?status=revoked', 'another view is its own start');
  next('https://auth.test/tokens?status=revoked&after=5');
  assert.equal(trailStart(page), 'https://auth.test/tokens?status=revoked', "each view's pages lead back to that view's first");
});

test('the first way to a page is kept, a "Next" back to the start adds nothing, and pages on one address leave no trail', () => {
  const { page, next, open } = browsing('https://auth.test/tokens');
  next('https://auth.test/tokens?page=2');
  next('https://auth.test/tokens?page=3');
  // A pager that turns from its last page to its first: the first stays the start, and the walk back ends.
  next('https://auth.test/tokens');
  assert.equal(trailStart(page), 'https://auth.test/tokens');
  open('https://auth.test/tokens?page=3');
  assert.equal(trailStart(page), 'https://auth.test/tokens');
  // A "Next" on the third page that leads to the second (a pager gone wrong): the first way to the second stays, and
  // the trail has no loop to follow.
  next('https://auth.test/tokens?page=2');
  assert.equal(trailStart(page), 'https://auth.test/tokens');
  const inPlace = browsing('https://auth.test/app');
  inPlace.next('https://auth.test/app');
  assert.equal(trailStart(inPlace.page), 'https://auth.test/app');
});

test('each browser page has a trail of its own', () => {
  const one = browsing('https://auth.test/tokens');
  one.next('https://auth.test/tokens?page=2');
  const other = browsing('https://auth.test/tokens?page=2');
  assert.equal(trailStart(other.page), 'https://auth.test/tokens?page=2');
  assert.equal(trailStart(one.page), 'https://auth.test/tokens');
});
