/**
 * `abortable`: one caller's wait ended by its signal, the shared work going on, and no listener left on a signal that
 * outlives the waits (a script's one shutdown signal, given to every call).
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { abortable } from './abort.ts';

test('an abort rejects the wait with its reason at once and takes its listener along; the work goes on', async () => {
  const controller = new AbortController();
  let finish: (value: string) => void = () => undefined;
  const work = new Promise<string>((resolve) => (finish = resolve));
  const waiting = abortable(work, controller.signal);
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1, 'listening while it waits');
  controller.abort(new Error('stopped by the caller'));
  await assert.rejects(waiting, /^Error: stopped by the caller$/);
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'gone with the abort, before the work settles');
  finish('done');
  assert.equal(await work, 'done');
});

test('a signal that outlives many waits keeps none of their listeners, whether the work succeeded or failed', async () => {
  const { signal } = new AbortController();
  for (let i = 0; i < 20; i++) assert.equal(await abortable(Promise.resolve(i), signal), i);
  await assert.rejects(abortable(Promise.reject(new Error('the work failed')), signal), /^Error: the work failed$/);
  assert.equal(getEventListeners(signal, 'abort').length, 0);
});

test('an aborted signal rejects at once with its reason; without a signal, the wait is the work itself', async () => {
  const work = Promise.resolve('done');
  assert.equal(abortable(work, undefined), work);
  await assert.rejects(abortable(work, AbortSignal.abort(new Error('already stopped'))), /^Error: already stopped$/);
});
