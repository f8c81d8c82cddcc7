import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
const ALLOWED_USER = 500_001;
const ALLOWED_GROUP = -100_500_002;
beforeAll(async () => {
  h = await startHarness({ env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED_USER), ALLOWED_CHAT_IDS: String(ALLOWED_GROUP) } });
});
afterAll(() => h.close());

describe('access lists', () => {
  it('serves a listed user', async () => {
    const user = h.api.createUser({ id: ALLOWED_USER, language_code: 'en' });
    expect((await h.ask(user, '/order 0007300100')).text).toContain('Order No. 0007300100');
  });

  it('refuses anyone else with their id, and asks the portal nothing', async () => {
    const stranger = h.api.createUser({ id: 777_000_111, language_code: 'ru' });
    const before = h.portal.requests.length;
    const reply = await h.ask(stranger, '/order 0007300100');
    expect(reply.text).toContain('777000111');
    expect(reply.text).toContain('Нет доступа');
    expect(h.portal.requests.length).toBe(before);
  });

  it("refuses a stranger's pasted numbers as their commands are (ru and en), and asks the portal nothing", async () => {
    const before = h.portal.requests.length;
    const ru = h.api.createUser({ id: 777_000_112, language_code: 'ru' });
    const reply = await h.ask(ru, 'где заказ 7300100 и ДП-77/2026?');
    expect(reply.text).toContain('Нет доступа');
    expect(reply.text).toContain('777000112');
    const en = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(en, '0007300100')).text).toContain(`You have no access to this bot. To get it, send your Telegram ID to the administrator: ${en.id}`);
    const group = h.api.createGroup({ type: 'supergroup' });
    const mention = await h.ask(en, '@order_lookup_bot 0007300100', group);
    expect(mention.text).toContain(String(group.id));
    expect(h.portal.requests.length).toBe(before);
  });

  it('serves anyone in a listed group', async () => {
    const member = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ id: ALLOWED_GROUP, type: 'supergroup' });
    expect(group.id).toBe(ALLOWED_GROUP);
    const reply = await h.ask(member, '/spec ДП-77/2026', group);
    expect(reply.text).toContain('Specifications 1–5 of 8');
  });

  it('refuses a stranger in another group, naming both ids', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    const reply = await h.ask(stranger, '/order@order_lookup_bot 0007300100', group);
    expect(reply.text).toContain(String(stranger.id));
    expect(reply.text).toContain(String(group.id));
  });

  it('refuses a button press from a stranger with an alert, and asks the portal nothing', async () => {
    const user = h.api.createUser({ id: ALLOWED_USER, language_code: 'en' });
    const results = await h.ask(user, '/order status production');
    const stranger = h.api.createUser({ language_code: 'en' });
    const before = h.portal.requests.length;
    const { answer, message } = await h.press(stranger, results, h.button(results, '▶'));
    expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining(String(stranger.id)) });
    expect(message?.edit_count).toBe(0);
    expect(h.portal.requests.length).toBe(before);
  });
});

describe('strangers in a group', () => {
  const QUIET_MS = 5 * 60_000;
  const refusals = (chatId: number) => h.api.messagesIn(chatId).filter((message) => message.text.includes('not available in this chat'));
  const later = (ms: number) => {
    h.clock.now = new Date(h.clock.now.getTime() + ms);
  };

  it('ignores a command addressed to another bot', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    h.api.sendText({ from: stranger, chat: group, text: '/order@other_bot 1' });
    h.api.sendText({ from: stranger, chat: group, text: '/start@Other_Bot' });
    await h.settle();
    expect(h.api.messagesIn(group.id)).toEqual([]);
  });

  it('never tells a stranger to slow down on top of the refusal, however many commands', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    for (let i = 0; i < 40; i += 1) h.api.sendText({ from: stranger, chat: group, text: '/order 1' });
    await h.settle();
    expect(h.api.messagesIn(group.id).map((message) => message.text)).toEqual([expect.stringContaining('not available in this chat')]);
  });

  it('refuses a stranger in their private chat again after half a minute, not before', async () => {
    const started = h.clock.now;
    try {
      const stranger = h.api.createUser({ language_code: 'en' });
      const told = () => h.api.messagesIn(stranger.id).length;
      await h.ask(stranger, '/start');
      h.api.sendText({ from: stranger, text: '/order 1' });
      await h.settle();
      expect(told()).toBe(1);
      later(30_000);
      await h.ask(stranger, '/order 1');
      expect(told()).toBe(2);
    } finally {
      h.clock.now = started;
    }
  });

  it('refuses a command to this bot, whatever the case of its name', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    const reply = await h.ask(stranger, '/order@Order_Lookup_Bot 1', group);
    expect(reply.text).toContain(String(stranger.id));
  });

  it('refuses 20 commands in 5 seconds once, and again after a quiet period', async () => {
    const started = h.clock.now;
    try {
      const stranger = h.api.createUser({ language_code: 'en' });
      const group = h.api.createGroup({ type: 'supergroup' });
      for (let i = 0; i < 20; i += 1) {
        h.api.sendText({ from: stranger, chat: group, text: '/order 1' });
        await h.settle();
        later(250);
      }
      expect(refusals(group.id)).toHaveLength(1);
      expect(h.api.messagesIn(group.id)).toHaveLength(1);

      later(QUIET_MS - 5_000 - 1);
      h.api.sendText({ from: stranger, chat: group, text: '/order 1' });
      await h.settle();
      expect(refusals(group.id)).toHaveLength(1);

      later(1);
      h.api.sendText({ from: stranger, chat: group, text: '/order 1' });
      await h.settle();
      expect(refusals(group.id)).toHaveLength(2);
      expect(refusals(group.id)[1]?.text).toContain(String(stranger.id));
    } finally {
      h.clock.now = started;
    }
  });

  it('refuses each stranger, and the same stranger in each chat, once', async () => {
    const [first, second] = [h.api.createUser({ language_code: 'en' }), h.api.createUser({ language_code: 'en' })];
    const [one, two] = [h.api.createGroup({ type: 'supergroup' }), h.api.createGroup({ type: 'group' })];
    for (const [user, group] of [[first, one], [second, one], [first, two], [first, one]] as const) {
      h.api.sendText({ from: user, chat: group, text: '/spec 1' });
    }
    await h.settle();
    expect(refusals(one.id).map((message) => message.text)).toEqual([
      expect.stringContaining(String(first.id)),
      expect.stringContaining(String(second.id)),
    ]);
    expect(refusals(two.id)).toHaveLength(1);
  });

  it('answers every button press of a stranger with an alert', async () => {
    const user = h.api.createUser({ id: ALLOWED_USER, language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    const results = await h.ask(user, '/order status production', group);
    const stranger = h.api.createUser({ language_code: 'en' });
    await h.ask(stranger, '/order 1', group);
    for (let i = 0; i < 3; i += 1) {
      const { answer } = await h.press(stranger, results, h.button(results, '▶'), true);
      expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining(String(stranger.id)) });
    }
  });
});
