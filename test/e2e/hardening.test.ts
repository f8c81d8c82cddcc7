import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { FLOOD_LIMIT_PER_MINUTE: '5' } });
});
afterAll(() => h.close());

describe('a user who floods the bot', () => {
  it('is asked once to slow down, and the portal is not asked for the rest', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    for (let i = 0; i < 5; i += 1) await h.ask(user, '/order 0007300100');
    const before = h.portal.requests.length;
    const warning = await h.ask(user, '/order 0007300100');
    expect(warning.text).toContain('Too many requests');
    for (let i = 0; i < 3; i += 1) h.api.sendText({ from: user, text: '/order 0007300100' });
    await h.settle();
    expect(h.portal.requests.length).toBe(before);
    expect(h.api.messagesIn(user.id)).toHaveLength(6);
    const other = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(other, '/order 0007300100')).text).toMatch(/^Order No\. \d{10} dated /);
  });

  it('still gets every button press answered', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/order status production');
    for (let i = 0; i < 4; i += 1) await h.press(user, list, h.button(list, '1/5'));
    const warned = await h.press(user, list, h.button(list, '1/5'));
    expect(warned.answer).toMatchObject({ show_alert: true, text: expect.stringContaining('Too many requests') });
    const quiet = await h.press(user, list, h.button(list, '1/5'));
    // Past the limit a press is still answered (the client's spinner stops), but silently: one warning is enough.
    expect(quiet.answer).toMatchObject({ text: undefined, show_alert: false });
  });
});

describe('Telegram flood control and audit', () => {
  it('waits retry_after on a 429 and delivers the answer', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/help');
    h.api.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 1', retry_after: 1 }, { chatId: user.id });
    const started = Date.now();
    const reply = await h.ask(user, '/order status production');
    expect(reply.text).toMatch(/^Orders 1–\d+ of \d+/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(h.logs.some((line) => line.msg === 'telegram asked to slow down' && line.retryAfter === 1)).toBe(true);
  });

  it('writes one audit line per lookup', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/spec ДП-77/2026');
    const audit = h.logs.filter((line) => line.audit === true && line.userId === user.id);
    expect(audit).toEqual([
      expect.objectContaining({
        chatId: user.id,
        via: 'command',
        resource: 'specification',
        filter: 'CONTRACT_NUMBER',
        value: 'ДП-77/2026',
        results: 5,
        total: 8,
        ms: expect.any(Number),
      }),
    ]);
  });

  it('logs a user who blocked the bot and does not retry', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/help');
    h.api.blockBot(user.id);
    h.api.sendText({ from: user, text: '/order status production' });
    await h.settle();
    expect(h.api.callsTo('sendMessage', { chatId: user.id })).toHaveLength(2);
    expect(h.logs.some((line) => line.msg === 'chat unreachable' && line.userId === user.id)).toBe(true);
  });
});
