import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat, User } from '../../src/telegram/telegraf/core.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Live guest cards (issue 32): a guest card of one record is edited when a poll sees the record
// change, for GUEST_CARD_LIVE_DAYS, at the watch interval, one portal call per query however many
// cards show it. The demo portal's order 0007300100 moves from Производство to Отгружен a minute on.

const MINUTE = 60_000;
const DAY = 86_400_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1', GUEST_CARD_LIVE_DAYS: '2' } });
});
afterAll(() => h.close());

let nextChat = 670_000_001;
const chat = (): Chat.PrivateChat => ({ id: nextChat++, type: 'private', first_name: 'Customer' });
/** A watch interval passes: one round of the loop. */
const poll = async () => {
  h.advance(1_000);
  await h.watches().runOnce();
};
const summon = async (from: User, text: string) => {
  const id = h.api.sendGuestMessage({ from, chat: chat(), text })!;
  const { inline_message_id } = await h.api.waitForGuestAnswer(id);
  await h.settle();
  return inline_message_id;
};
const card = (id: string) => h.api.inlineMessage(id)!;
const portalCalls = () => h.portal.requests.filter((url) => url.includes('SAP_ID=0007300100')).length;

describe('a live guest card', () => {
  it('is edited when a poll sees its record change, with the time of the data, in its language; one portal call per interval for all cards', async () => {
    h.portal.setDemoTime(0);
    const ru = await summon(h.api.createUser({ language_code: 'ru' }), '@order_lookup_bot 0007300100');
    const en = await summon(h.api.createUser({ language_code: 'en' }), '@order_lookup_bot 0007300100');
    expect(card(ru).text).toContain('Статус: Производство');
    await poll();
    await poll();
    expect(card(ru).edit_count).toBe(0);
    expect(card(en).edit_count).toBe(0);

    h.portal.advanceDemoClock(MINUTE);
    const before = portalCalls();
    await poll();
    expect(portalCalls() - before).toBe(1);
    expect(card(ru).edit_count).toBe(1);
    expect(card(ru).text).toContain('Статус: Отгружен');
    expect(card(ru).text).toContain('Данные на 23.11.2026 14:05');
    expect(card(en).text).toContain('Status: Отгружен');
    expect(card(en).text).toMatch(/Data as of 23 Nov 2026, 14:05$/);
    expect(card(en).reply_markup?.inline_keyboard[0]?.[0]).toMatchObject({ text: 'Open in the bot' });
    // Nothing changed since: no edit.
    await poll();
    expect(card(ru).edit_count).toBe(1);
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('is left as it is once GUEST_CARD_LIVE_DAYS have passed, and forgotten', async () => {
    h.portal.setDemoTime(0);
    const id = await summon(h.api.createUser({ language_code: 'en' }), '@order_lookup_bot 0007300100');
    h.advance(2 * DAY);
    h.portal.advanceDemoClock(MINUTE);
    const before = portalCalls();
    await poll();
    expect(card(id).edit_count).toBe(0);
    expect(portalCalls()).toBe(before);
  });

  it('a card of several records or of nothing found is not kept live', async () => {
    const several = await summon(h.api.createUser({ language_code: 'en' }), '@order_lookup_bot spec ДП-77/2026');
    h.portal.advanceDemoClock(2 * MINUTE);
    await poll();
    await poll();
    expect(card(several).edit_count).toBe(0);
  });
});
