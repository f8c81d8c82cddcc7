import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

// WATCH_MAX_RECORDS 3: `/order status production` (21 records in the demo data) is too many.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { WATCH_MAX_RECORDS: '3', WATCH_LIMIT_PER_CHAT: '2' } });
});
afterAll(() => h.close());

const labels = (message: { buttons: Array<{ text: string }> } | undefined) => message?.buttons.map((button) => button.text) ?? [];

describe('/watch with a query', () => {
  it('confirms what is watched, how many records it covers and how often the bot looks, in Russian and English', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    expect((await h.ask(ru, '/watch 0007300100')).text).toBe(
      '🔔 Слежу за: заказы, номер SAP «0007300100». Сейчас записей: 1. Проверяю раз в 5 минут.',
    );
    const en = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(en, '/watch order 0007300100')).text).toBe(
      '🔔 Watching: orders, SAP no. “0007300100”. Records now: 1. I check every 5 minutes.',
    );
    expect(h.logs).toContainEqual(expect.objectContaining({ audit: true, chatId: en.id, userId: en.id, resource: 'order', filter: 'SAP_ID', value: '0007300100', msg: 'watch added' }));
  });

  it('answers malformed arguments with the usage and asks the portal nothing', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const before = h.portal.requests.length;
    expect((await h.ask(user, '/watch spec')).text).toMatch(/^Tell me what to watch, for example:\n\/watch 0007300100/);
    const badDate = await h.ask(user, '/watch order date 31.02.2026');
    expect(badDate.text).toContain('31.02.2026');
    expect(badDate.text).toContain('Tell me what to watch');
    expect(h.portal.requests.length).toBe(before);
  });

  it('refuses a query with more records than WATCH_MAX_RECORDS and stores nothing', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    expect((await h.ask(user, '/watch order status production')).text).toBe(
      'Под этот запрос подходит записей: 21, а следить я могу не больше чем за 3. Уточните запрос: например, номер договора или номер SAP вместо материала или статуса.',
    );
    expect((await h.ask(user, '/watch')).text).toMatch(/^В этом чате я пока ни за чем не слежу\./);
  });

  it('keeps the same query watched twice as one watch', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    await h.ask(user, '/watch 0007300100');
    expect((await h.ask(user, '/watch заказ 0007300100')).text).toBe('I am already watching: orders, SAP no. “0007300100”. To stop, press 🔕 in /watch.');
    expect(labels(await h.ask(user, '/watch'))).toEqual(['🔕 1', '⚙ 1']);
  });

  it('refuses past WATCH_LIMIT_PER_CHAT', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    await h.ask(user, '/watch 0007300100');
    await h.ask(user, '/watch 0007300321');
    expect((await h.ask(user, '/watch 0007300372')).text).toBe('Наблюдений в этом чате: 2 — это предел. Остановите ненужные в /watch.');
  });
});

describe('the /watch list and 🔕', () => {
  it('lists the watches, and 🔕 stops one and the list updates', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    await h.ask(user, '/watch 0007300100');
    await h.ask(user, '/watch 0007300321');
    const list = await h.ask(user, '/watch');
    expect(list.text).toBe(
      [
        'Наблюдения 1–2 из 2',
        '',
        '1. заказы, номер SAP «0007300100»',
        'с 23.11.2026; изменений не было',
        '',
        '2. заказы, номер SAP «0007300321»',
        'с 23.11.2026; изменений не было',
      ].join('\n'),
    );
    const { answer, message } = await h.press(user, list, h.button(list, '🔕 1'));
    expect(answer).toMatchObject({ text: 'Больше не слежу' });
    expect(message?.text).toBe(['Наблюдения 1–1 из 1', '', '1. заказы, номер SAP «0007300321»', 'с 23.11.2026; изменений не было'].join('\n'));
    expect(labels(message)).toEqual(['🔕 1', '⚙ 1']);
    expect(h.logs).toContainEqual(expect.objectContaining({ audit: true, chatId: user.id, value: '0007300100', msg: 'watch stopped' }));
  });

  it('answers a forged or another chat\'s watch id with the stale-button alert', async () => {
    const owner = h.api.createUser({ language_code: 'en' });
    await h.ask(owner, '/watch 0007300372');
    const theirs = h.button(await h.ask(owner, '/watch'), '🔕 1');
    const user = h.api.createUser({ language_code: 'en' });
    const list = await h.ask(user, '/watch');
    for (const data of ['u:999', theirs]) {
      const { answer } = await h.press(user, list, data, true);
      expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining('This button is out of date') });
    }
    expect(labels(await h.ask(owner, '/watch'))).toEqual(['🔕 1', '⚙ 1']);
  });
});

describe('🔔 under results and records', () => {
  it('turns 🔔 under a results page into 🔕, lists the watch, and 🔕 turns it back', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const results = await h.ask(user, '/order 0007300100');
    expect(labels(results).at(-1)).toBe('🔔 Watch');
    const watched = await h.press(user, results, h.button(results, '🔔 Watch'));
    expect(watched.answer).toMatchObject({ text: 'Watching' });
    expect(labels(watched.message)).toContain('🔕 Stop watching');
    expect((await h.ask(user, '/watch')).text).toContain('1. orders, SAP no. “0007300100”');
    // The same query again shows 🔕 from the start.
    expect(labels(await h.ask(user, '/order 0007300100'))).toContain('🔕 Stop watching');

    const stopped = await h.press(user, watched.message!, h.button(watched.message, '🔕 Stop watching'));
    expect(stopped.answer).toMatchObject({ text: 'Stopped watching' });
    expect(labels(stopped.message)).toContain('🔔 Watch');
    expect((await h.ask(user, '/watch')).text).toMatch(/^Nothing is watched in this chat yet\./);
  });

  it('watches one record from its view', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    // The one order found opens at once, as a rich message, with its 🔔.
    const record = await h.ask(user, '/order 0007300321');
    expect(labels(record)).toContain('🔔 Следить');
    const watched = await h.press(user, record!, h.button(record, '🔔 Следить'));
    expect(watched.answer).toMatchObject({ text: 'Слежу' });
    expect(labels(watched.message)).toContain('🔕 Не следить');
    expect(watched.message?.text).toBe(record?.text);
    expect((await h.ask(user, '/watch')).text).toContain('1. заказы, номер SAP «0007300321»');
  });

  it('refuses 🔔 under results that are too many, with a message, and keeps 🔔', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const results = await h.ask(user, '/order status production');
    const refusal = h.api.nextBotMessage(user.id);
    const pressed = await h.press(user, results, h.button(results, '🔔 Watch'));
    expect((await refusal).text).toMatch(/^This query matches 21 records, and I can watch at most 3\./);
    expect(labels(pressed.message)).toContain('🔔 Watch');
  });
});

describe('who may watch', () => {
  let strict: Harness;
  const ALLOWED_USER = 500_101;
  beforeAll(async () => {
    strict = await startHarness({ env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED_USER) } });
  });
  afterAll(() => strict.close());

  it('refuses a stranger, asks the portal nothing and stores nothing', async () => {
    const stranger = strict.api.createUser({ language_code: 'en' });
    const before = strict.portal.requests.length;
    expect((await strict.ask(stranger, '/watch 0007300100')).text).toContain(String(stranger.id));
    expect(strict.portal.requests.length).toBe(before);
    const user = strict.api.createUser({ id: ALLOWED_USER, language_code: 'en' });
    const results = await strict.ask(user, '/order 0007300100');
    const { answer } = await strict.press(stranger, results, strict.button(results, '🔔 Watch'));
    expect(answer).toMatchObject({ show_alert: true, text: expect.stringContaining(String(stranger.id)) });
    expect((await strict.ask(user, '/watch')).text).toMatch(/^Nothing is watched in this chat yet\./);
  });
});
