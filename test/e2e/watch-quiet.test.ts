import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hourIn } from '../../src/watch/quiet-hours.ts';
import { HARNESS_START, startHarness, type Harness } from '../support/harness.ts';

// QUIET_HOURS covering the hour the harness's clock shows (in TIME_ZONE, Europe/Moscow by default):
// a notification arrives without sound.

let h: Harness;
beforeAll(async () => {
  const hour = hourIn(HARNESS_START.getTime(), 'Europe/Moscow');
  h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1', QUIET_HOURS: `${hour}-${(hour + 1) % 24}` } });
});
afterAll(() => h.close());

describe('quiet hours', () => {
  it('send notifications without sound', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/watch 0007300100');
    h.advance(1_000);
    await h.watches().runOnce();
    h.portal.advanceDemoClock(60_000);
    const sent = () => h.api.callsTo('sendMessage', { chatId: user.id }).filter((call) => String(call.params.text).startsWith('🔔 Changes'));
    for (let round = 0; round < 40 && sent().length === 0; round += 1) {
      h.advance(200);
      await h.watches().runOnce();
    }
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.params.disable_notification).toBe(true);
    // The confirmation of /watch, an answer to the user, keeps its sound.
    expect(h.api.callsTo('sendMessage', { chatId: user.id })[0]?.params.disable_notification).toBeUndefined();
  });
});
