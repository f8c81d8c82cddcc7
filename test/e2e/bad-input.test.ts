import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('bad arguments', () => {
  it.each([
    ['/order', 'Tell me what to look for'],
    ['/order    ', 'Tell me what to look for'],
    ['/spec', '/spec ДП-77/2026'],
    ['/order crm', 'Tell me what to look for'],
    [`/order ${'9'.repeat(10_000)}`, '100 characters at most'],
    ['/order date 32.01.2026', '“32.01.2026” is not a date'],
    ['/spec дата позавчера', '“позавчера” is not a date'],
    ['/order date 31.02.26', '“31.02.26” is not a date I can read, or no such day exists. For example: 15.03.2026, 15.03.26, 2026-03-15, 15 March, today, yesterday.'],
  ])('%j gets a usage text and no portal call', async (command, expected) => {
    const user = h.api.createUser({ language_code: 'en' });
    const before = h.portal.requests.length;
    const reply = await h.ask(user, command.slice(0, 4000));
    expect(reply.text).toContain(expected);
    expect(h.portal.requests.length).toBe(before);
  });

  it('escapes HTML in the echo and keeps it exact', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(user, '/order material <b>Труба</b> & "K60" <script>');
    expect(reply.text).toContain('“<b>Труба</b> & "K60" <script>”');
    // The user's tags stayed text: nothing became bold or a script.
    const styled = reply.entities.map((entity) => reply.text.slice(entity.offset, entity.offset + entity.length));
    expect(styled).not.toContain('Труба');
  });

  it('sends parameter-like text as one value', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(user, '/order 1&limit=1000&offset=-1');
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?SAP_ID=1%26limit%3D1000%26offset%3D-1&limit=5&offset=0');
    expect(reply.text).toContain('No orders found');
  });

  it('handles emoji and other scripts', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const reply = await h.ask(user, '/spec 🚀📦 合同 👍🏽');
    expect(reply.text).toContain('«🚀📦 合同 👍🏽»');
  });

  it('does not answer plain chatter in a group, numbers and all, without /autolookup, though it reads every message', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const group = h.api.createGroup({ type: 'supergroup' });
    h.api.setPrivacyMode(false);
    try {
      const before = h.portal.requests.length;
      h.api.sendText({ from: user, chat: group, text: 'hello everyone, where is 0007300100?' });
      await h.settle();
      expect(h.api.messagesIn(group.id)).toEqual([]);
      expect(h.portal.requests.length).toBe(before);
    } finally {
      h.api.setPrivacyMode(true);
    }
  });

  it.each(['x:o2=notadate', 'p:05:0:o0=0007300100', 'p:1e1:0:o0=0007300100', 'r:5:00:0:0:abcdef:o0=0007300100'])(
    'a forged button %j gets the stale-button alert and no portal call',
    async (data) => {
      const user = h.api.createUser({ language_code: 'en' });
      const results = await h.ask(user, '/order 0007300100');
      const before = h.portal.requests.length;
      const { answer, message } = await h.press(user, results, data, true);
      expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining('This button is out of date') });
      expect(h.portal.requests.length).toBe(before);
      expect(message?.edit_count).toBe(0);
      expect(h.api.messagesIn(user.id)).toHaveLength(1);
    },
  );

  it('never failed a Telegram call', () => {
    expect(h.api.failedCalls()).toEqual([]);
  });
});

describe('anything else in a private chat', () => {
  // Only this bot is in a private chat: a command to another one was a slip, and silence would look like a dead bot.
  it.each(['hello', '/unknown_command', 'call me at 12:30, order 12345?', '/start@other_bot'])('%j gets a pointer to /help and two examples of what can be pasted', async (text) => {
    const user = h.api.createUser({ language_code: 'en' });
    const before = h.portal.requests.length;
    const reply = await h.ask(user, text);
    expect(reply.text).toContain("I don't understand that message");
    expect(reply.text).toContain('Send an order or contract number, for example 0007300100 or ДП-77/2026');
    expect(reply.text).toContain('/help');
    expect(h.portal.requests.length).toBe(before);
  });
});
