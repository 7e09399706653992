/**
 * Contract 5.2 / 8: a temporary token is valid for 3600 seconds; a permanent
 * token until it is revoked. On the sandbox the clock is advanced; on a live
 * service the temporary-token check really waits and is opt-in (`@slow`,
 * SLICER_CONTRACT_SLOW=1). These tests move the sandbox clock, so they run
 * alone, after the other projects (project `clock`).
 */
import { clause, expect, refused, test } from '../fixtures.ts';
import { readToolSettings } from '../../src/settings/tool_settings.ts';

test(
  '5.2/8: a temporary token is accepted at 3599 s and refused after 3600 s (sandbox clock)',
  clause('5.2/8 validity', '@sandbox'),
  async ({ api, controls }) => {
    test.skip(!controls, 'needs the sandbox clock (test controls); the live variant is tagged @slow');
    const token = await api.issue();
    await controls?.advance(3599);
    expect(refused(await api.call('slicer', { header: token })), 'refused before 3600 s').toBe(false);
    await controls?.advance(2);
    expect(refused(await api.call('slicer', { header: token })), 'still accepted after 3600 s').toBe(true);
  },
);

test(
  '5.2/8: a temporary token is accepted for 3600 s and refused after (live, waits an hour)',
  clause('5.2/8 validity', '@slow'),
  async ({ api, target }) => {
    test.skip(!target.live, 'the sandbox variant above checks this in seconds');
    test.skip(!readToolSettings().contractSlow, 'opt-in: set SLICER_CONTRACT_SLOW=1 (waits over an hour)');
    test.setTimeout(2 * 3600_000);
    const token = await api.issue();
    const issuedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3500_000));
    expect(refused(await api.call('slicer', { header: token })), 'refused before 3600 s').toBe(false);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, issuedAt + 3660_000 - Date.now())));
    await expect.poll(async () => refused(await api.call('slicer', { header: token })), { timeout: 120_000 }).toBe(true);
  },
);
