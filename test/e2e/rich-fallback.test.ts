import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Issue 31 with older Bot API servers (startBotApi's botApiVersion), with one that turns out not to
// have rich messages, with content Telegram refuses, and with TELEGRAM_FEATURES=legacy: the bot
// sends no field the server would ignore, falls back to today's HTML view, and the user sees no error.

const labels = (message: BotMessage | undefined) => message?.buttons.map((button) => button.text) ?? [];
/** Every field of the bot's calls, at any depth, by name. */
const fieldsSent = (h: Harness) => {
  const names = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        names.add(key);
        walk(inner);
      }
    }
  };
  for (const call of h.api.calls) walk(call.params);
  return names;
};
const warnings = (h: Harness, capability: string) => h.logs.filter((line) => line.level === 40 && line.capability === capability);

describe('a server of Bot API 10.0 (no rich messages, no disabled buttons)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ botApiVersion: '10.0' });
  });
  afterAll(() => h.close());

  for (const [language, header, back, orders, toRecord] of [
    ['ru', /^Заказ № \d{10}/, '◀ К списку', '📦 Заказы с материалом…', '◀ К записи'],
    ['en', /^Order No\. \d{10}/, '◀ Back to list', '📦 Orders with a material…', '◀ Back to the record'],
  ] as const) {
    it(`${language}: a record opens in the results' message as today's HTML view, with the chooser, the copy button and Back`, async () => {
      const user = h.api.createUser({ language_code: language });
      const list = await h.ask(user, '/order status production');
      const { message: record } = await h.press(user, list, h.button(list, '1'));
      expect(record?.message_id).toBe(list.message_id);
      expect(record?.rich).toBeUndefined();
      expect(record?.text).toMatch(header);
      expect(labels(record).slice(0, 3)).toEqual([orders, expect.stringMatching(/^📄 /), expect.stringMatching(/^📋 \d{10}$/)]);
      expect(labels(record).slice(-3)).toEqual([back, expect.stringMatching(/^🔄 /), expect.stringMatching(/^🔔 /)]);
      const { message: chooser } = await h.press(user, record!, h.button(record, orders));
      expect(labels(chooser)[0]).toMatch(/^📦 \d+ · /);
      const { message: again } = await h.press(user, chooser!, h.button(chooser, toRecord));
      expect(again?.text).toBe(record?.text);
      const { message: list2 } = await h.press(user, again!, h.button(again, back));
      expect(list2?.text).toBe(list.text);
      expect(h.api.callsTo('sendRichMessage')).toEqual([]);
      expect(h.api.failedCalls()).toEqual([]);
      expect(h.api.ignoredFields()).toEqual([]);
    });
  }

  it('one record found opens at once as today’s HTML view, with nothing to go back to', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const record = await h.ask(user, '/order 0007300100');
    expect(record.rich).toBeUndefined();
    expect(record.text).toMatch(/^Order No\. 0007300100 dated /);
    expect(labels(record)).not.toContain('◀ Back to list');
    expect(labels(record)).toContain('📋 0007300100');
    expect(h.api.callsTo('sendRichMessage')).toEqual([]);
    expect(h.api.ignoredFields()).toEqual([]);
  });

  it('leaves ◀ out on the first page rather than sending a disabled button it would refuse', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/order status production');
    expect(labels(list).filter((label) => /^[◀▶]$|\//.test(label))).toEqual(['1/5', '▶']);
    expect(fieldsSent(h).has('disabled')).toBe(false);
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('offers inline results as today’s HTML card', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const answer = await h.api.waitForInlineAnswer(h.api.sendInlineQuery({ from: user, query: '0007300100' }));
    const [result] = answer.results as Array<{ input_message_content: Record<string, unknown> }>;
    expect(result?.input_message_content).toMatchObject({ message_text: expect.stringContaining('Заказ № 0007300100'), parse_mode: 'HTML' });
    expect(fieldsSent(h).has('rich_message')).toBe(false);
  });
});

describe('a server of Bot API 9.3 (no button styles, no date_time entities)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ botApiVersion: '9.3', env: { WATCH_INTERVAL_SECONDS: '1' } });
  });
  afterAll(() => h.close());

  it('sends no style and no <tg-time>: "updated 14:05" stays the TIME_ZONE text; copy buttons (7.11) stay', async () => {
    h.clock.now = new Date('2026-11-23T11:05:00Z');
    const user = h.api.createUser({ language_code: 'ru' });
    const list = await h.ask(user, '/order status production');
    expect(list.text).toContain('обновлено 14:05');
    expect(list.entities.map((entity) => entity.type)).not.toContain('date_time');
    const { message: record } = await h.press(user, list, h.button(list, '1'));
    expect(record?.buttons.find((button) => button.text === '🔔 Следить')).toEqual({ text: '🔔 Следить', callback_data: expect.any(String) });
    expect(labels(record).some((label) => /^📋 \d{10}$/.test(label))).toBe(true);
    expect(fieldsSent(h).has('style')).toBe(false);
    expect(h.api.ignoredFields()).toEqual([]);
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('a notification tells its time as text', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/watch 0007300100');
    h.portal.advanceDemoClock(60_000);
    for (let round = 0; round < 40 && !h.api.messagesIn(user.id).some((message) => message.text.startsWith('🔔 Changes')); round += 1) {
      h.advance(200);
      await h.watches().runOnce();
    }
    const notification = h.api.messagesIn(user.id).find((message) => message.text.startsWith('🔔 Changes'));
    expect(notification?.text).toMatch(/\nupdated \d{2}:\d{2}\n/);
    expect(notification?.entities.map((entity) => entity.type)).not.toContain('date_time');
    expect(notification?.buttons.at(-1)).toEqual({ text: '🔕 Stop watching', callback_data: expect.stringMatching(/^u:\d+$/) });
    expect(h.api.failedCalls()).toEqual([]);
  });
});

describe('a server of Bot API 10.2 (rich messages, but no disabled buttons: getMe cannot tell)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ botApiVersion: '10.2' });
  });
  afterAll(() => h.close());

  it('the first keyboard with a disabled ◀ is refused, sent again without it, and none is tried again; logged once', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/order status production');
    expect(labels(first).filter((label) => /^[◀▶]$/.test(label))).toEqual(['▶']);
    expect(h.api.failedCalls().map((call) => call.response)).toEqual([
      { ok: false, error_code: 400, description: "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard" },
    ]);
    const second = await h.ask(user, '/order status production');
    expect(labels(second).filter((label) => /^[◀▶]$/.test(label))).toEqual(['▶']);
    expect(h.api.failedCalls()).toHaveLength(1);
    expect(h.api.ignoredFields()).toHaveLength(1);
    expect(warnings(h, 'disabledButtons')).toHaveLength(1);
    // Rich messages it has (10.1): a record comes as one.
    const next = h.api.nextBotMessage(user.id);
    await h.press(user, second, h.button(second, '1'));
    expect((await next).rich).toBeDefined();
  });
});

describe('a current server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('that turns out not to have sendRichMessage (404): the HTML view instead, for the rest of the process, logged once', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/order status production');
    h.api.failNext('sendRichMessage', { error_code: 404, description: 'Not Found: method not found' });
    const next = h.api.nextBotMessage(user.id);
    await h.press(user, list, h.button(list, '1'));
    const record = await next;
    expect(record.rich).toBeUndefined();
    expect(record.text).toMatch(/^Order No\. \d{10}/);
    expect(warnings(h, 'richMessages')).toMatchObject([{ msg: expect.stringContaining('does not have richMessages') }]);
    // From now on, in place as today, with no try of a rich message.
    const { message } = await h.press(user, list, h.button(list, '1'));
    expect(message?.text).toBe(record.text);
    expect(h.api.callsTo('sendRichMessage')).toHaveLength(1);
    expect(warnings(h, 'richMessages')).toHaveLength(1);
  });
});

describe('content Telegram refuses', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterEach(() => expect(h.api.failedCalls()).toEqual([]));
  afterAll(() => h.close());

  for (const language of ['ru', 'en'] as const) {
    it(`${language}: that record comes as the HTML view, a warning with its id and never its content; the next is rich again`, async () => {
      const user = h.api.createUser({ language_code: language });
      const list = await h.ask(user, '/order status production');
      h.api.failNext('sendRichMessage', { error_code: 400, description: 'Bad Request: RICH_MESSAGE_TOO_LONG' });
      const next = h.api.nextBotMessage(user.id);
      await h.press(user, list, h.button(list, '1'));
      const record = await next;
      expect(record.rich).toBeUndefined();
      const sapId = /^(?:Заказ № |Order No\. )(\d{10})/.exec(record.text)?.[1];
      expect(sapId).toBeDefined();
      const warning = h.logs.filter((line) => line.msg === 'Telegram refused a rich message: the HTML view instead').at(-1);
      expect(warning).toMatchObject({ level: 40, record: sapId, errorCode: 400, description: 'Bad Request: RICH_MESSAGE_TOO_LONG' });
      expect(JSON.stringify(warning)).not.toContain('Труба');
      const again = h.api.nextBotMessage(user.id);
      await h.press(user, list, h.button(list, '1'));
      expect((await again).rich).toBeDefined();
    });
  }
});

describe('TELEGRAM_FEATURES=legacy on a current server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { TELEGRAM_FEATURES: 'legacy' } });
  });
  afterAll(() => h.close());

  for (const language of ['ru', 'en'] as const) {
    it(`${language}: today's messages: records in place as HTML, no rich message, style, copy, disabled button or date_time`, async () => {
      const user = h.api.createUser({ language_code: language });
      const list = await h.ask(user, '/order status production');
      const { message: record } = await h.press(user, list, h.button(list, '1'));
      expect(record?.message_id).toBe(list.message_id);
      expect(record?.rich).toBeUndefined();
      expect(labels(record).some((label) => label.startsWith('📋'))).toBe(false);
      const sent = fieldsSent(h);
      for (const field of ['rich_message', 'style', 'copy_text', 'disabled']) expect(sent.has(field)).toBe(false);
      expect(h.api.calls.some((call) => JSON.stringify(call.params).includes('tg-time'))).toBe(false);
      expect(h.api.failedCalls()).toEqual([]);
    });
  }
});
