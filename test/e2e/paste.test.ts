import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Issue 30, "numbers in plain text": what sales staff paste into a private chat, answered as the
// matching command would, several at once in one message.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const labels = (message: BotMessage | undefined) => message?.buttons.map((button) => button.text) ?? [];
/** The portal requests made while `act` ran. */
const requestsDuring = async (act: () => Promise<unknown>): Promise<string[]> => {
  const before = h.portal.requests.length;
  await act();
  await h.settle();
  return h.portal.requests.slice(before);
};
/** The audit lines of lookups logged while `act` ran. */
const auditDuring = async (act: () => Promise<unknown>) => {
  const before = h.logs.length;
  await act();
  await h.settle();
  return h.logs.slice(before).filter((line) => line.audit === true);
};

describe('one number pasted in a private chat', () => {
  it('answers a SAP number as /order does: the one order opens at once (ru)', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const audit = await auditDuring(async () => {
      const reply = await h.ask(user, '0007300100');
      expect(reply.text).toMatch(/^Заказ № 0007300100 от 18\.11\.2025\n/);
      expect(labels(reply)).not.toContain('◀ К списку');
    });
    expect(audit).toEqual([expect.objectContaining({ via: 'pasted', filter: 'SAP_ID', value: '0007300100', userId: user.id, results: 1 })]);
  });

  it('takes a 6–9 digit number as the SAP number with leading zeros, and a CRM id in any case (en)', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(user, '7300100')).text).toMatch(/^Order No\. 0007300100 dated 18 Nov 2025\n/);
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?SAP_ID=0007300100&limit=5&offset=0');
    expect((await h.ask(user, 'crm-2026-004512')).text).toMatch(/^Order No\. 0007300202 dated /);
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?CRM_ID=CRM-2026-004512&limit=5&offset=0');
  });

  it('answers a contract number as /spec does: its specifications, a page of them (ru and en)', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    const list = await h.ask(ru, 'ДП-77/2026');
    expect(list.text.split('\n').slice(0, 2)).toEqual(['Спецификации 1–5 из 8', 'Поиск: номер договора «ДП-77/2026»']);
    const en = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(en, 'the contract is дп-77/2026')).text.split('\n')[0]).toBe('Specifications 1–5 of 8');
  });

  it('answers a material code with its orders and specifications as two buttons with their counts', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    const reply = await h.ask(ru, '000000000010012345');
    expect(reply.text).toBe('Код материала 10012345: заказов — 24, спецификаций — 13.');
    expect(labels(reply)).toEqual(['📦 Заказы · 24', '📄 Спецификации · 13']);
    const next = h.api.nextBotMessage(ru.id);
    await h.press(ru, reply, h.button(reply, '📄 Спецификации · 13'));
    expect((await next).text.split('\n')[0]).toBe('Спецификации 1–5 из 13');
    const en = h.api.createUser({ language_code: 'en' });
    const english = await h.ask(en, '000000000010013020');
    expect(english.text).toBe('Material code 10013020: orders — 5, specifications — 3.');
    expect(labels(english)).toEqual(['📦 Orders · 5', '📄 Specifications · 3']);
  });

  it('asks whose records a date means, orders or specifications, before it asks the portal', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    let question: BotMessage | undefined;
    expect(await requestsDuring(async () => (question = await h.ask(ru, '15.03.26')))).toEqual([]);
    expect(question?.text).toBe('15.03.2026: искать заказы от этой даты или спецификации с заявками от этой даты?');
    expect(labels(question)).toEqual(['📦 Заказы от 15.03.2026', '📄 Спецификации с заявками от 15.03.2026']);
    const next = h.api.nextBotMessage(ru.id);
    await h.press(ru, question!, h.button(question, '📦 Заказы от 15.03.2026'));
    expect((await next).text.split('\n').slice(0, 2)).toEqual(['Заказы 1–5 из 11', 'Поиск: дата заказа «15.03.2026»']);
    const en = h.api.createUser({ language_code: 'en' });
    const english = await h.ask(en, '2026-03-15');
    expect(english.text).toBe('15 Mar 2026: look for orders of that date, or for specifications with production requests of that date?');
    expect(labels(english)).toEqual(['📦 Orders of 15 Mar 2026', '📄 Specifications, requests of 15 Mar 2026']);
  });

  it('refuses a date that does not exist, with an example', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    expect((await h.ask(ru, 'отгрузка 31.02.2026')).text).toBe(
      'Не удалось разобрать дату «31.02.2026»: такой даты нет или она написана непонятно. Например: 15.03.2026, 15.03.26, 2026-03-15, 15 марта, сегодня, вчера.',
    );
  });

  it('reads a forwarded message and a photo caption the same way', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    const forwarded = h.api.nextBotMessage(ru.id);
    h.api.sendText({ from: ru, text: 'Добрый день! Где заказ 7300100?', forwardOrigin: { type: 'hidden_user', date: 1_790_000_000, sender_user_name: 'Клиент' } });
    expect((await forwarded).text).toMatch(/^Заказ № 0007300100 от /);
    const en = h.api.createUser({ language_code: 'en' });
    const captioned = h.api.nextBotMessage(en.id);
    h.api.sendPhoto({ from: en, caption: 'scan of ДП-77/2026' });
    expect((await captioned).text.split('\n')[0]).toBe('Specifications 1–5 of 8');
  });
});

describe('several numbers pasted at once', () => {
  it('answers in one message: a short card per record found, a line per number that found nothing (ru)', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    let reply: BotMessage | undefined;
    const requests = await requestsDuring(async () => (reply = await h.ask(ru, 'где заказ 7300100 и 7300321? и ещё 0007399999')));
    expect(requests).toHaveLength(3);
    expect(h.api.messagesIn(ru.id)).toHaveLength(1);
    expect(reply!.text.replaceAll('\u00a0', ' ')).toBe(
      [
        'По номерам из сообщения',
        '',
        '1. Заказ № 0007300100 от 18.11.2025',
        'Статус: Производство',
        'Сумма: 9 624 307,00 RUB',
        '2 позиции',
        '',
        '2. Заказ № 0007300321 от 15.03.2026',
        'Статус: Производство',
        'Сумма: 502 783 744,56 RUB',
        '60 позиций',
        '',
        'номер SAP «0007399999»: ничего не найдено.',
      ].join('\n'),
    );
    expect(labels(reply)).toEqual(['1', '2']);
    // A number opens its record as a new message: the answer stays.
    const opened = h.api.nextBotMessage(ru.id);
    await h.press(ru, reply!, h.button(reply, '2'));
    expect((await opened).text).toMatch(/^Заказ № 0007300321 от 15\.03\.2026/);
    expect(h.api.message(ru.id, reply!.message_id)?.text).toBe(reply!.text);
  });

  it('shows a contract’s first specifications and a button for them all, a material and a date among them (en)', async () => {
    const en = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(en, 'ДП-77/2026, 000000000010013020 and 15.03.2026');
    expect(reply.text).toMatch(/^For the numbers in the message\n\n1\. Specification No\. 8\n/);
    expect(reply.text).toContain('… and 5 more records: button 📋 ДП-77/2026 · 8');
    expect(reply.text).toContain('Material code 10013020: orders — 5, specifications — 3.');
    expect(reply.text).toContain('15 Mar 2026: look for orders of that date');
    expect(labels(reply)).toEqual([
      '1',
      '2',
      '3',
      '📋 ДП-77/2026 · 8',
      '📦 Orders · 5',
      '📄 Specifications · 3',
      '📦 Orders of 15 Mar 2026',
      '📄 Specifications, requests of 15 Mar 2026',
    ]);
    const list = h.api.nextBotMessage(en.id);
    await h.press(en, reply, h.button(reply, '📋 ДП-77/2026 · 8'));
    expect((await list).text.split('\n')[0]).toBe('Specifications 1–5 of 8');
  });

  it('looks up at most ten, and says how many more were not looked up', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    const numbers = Array.from({ length: 13 }, (_, index) => String(7_300_100 + 17 * index)).join(' ');
    let reply: BotMessage | undefined;
    expect(await requestsDuring(async () => (reply = await h.ask(ru, numbers)))).toHaveLength(10);
    expect(reply!.text).toContain('Ещё 3 номера из сообщения не искал: не больше 10 за раз.');
    expect(labels(reply)).toHaveLength(10);
    const en = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(en, `${numbers} 7300321`)).text).toContain('4 more numbers in the message were not looked up: 10 at most at a time.');
  });

  it('answers /order with several SAP numbers as pasted ones, audited as a command (ru and en)', async () => {
    const ru = h.api.createUser({ language_code: 'ru' });
    const audit = await auditDuring(async () => {
      const reply = await h.ask(ru, '/order 0007300100 0007300321');
      expect(reply.text.split('\n')[0]).toBe('По номерам из сообщения');
      expect(labels(reply)).toEqual(['1', '2']);
    });
    expect(audit.map((line) => [line.via, line.value])).toEqual([
      ['command', '0007300100'],
      ['command', '0007300321'],
    ]);
    const en = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(en, '/order 7300100, 7300321');
    expect(reply.text).toMatch(/^For the numbers in the message\n\n1\. Order No\. 0007300100/);
  });
});

describe('the flood limit', () => {
  it('counts each number looked up as one query', async () => {
    const limited = await startHarness({ env: { FLOOD_LIMIT_PER_MINUTE: '5' } });
    try {
      const ru = limited.api.createUser({ language_code: 'ru' });
      expect((await limited.ask(ru, '7300100 7300117 7300134')).text).toContain('По номерам из сообщения');
      const before = limited.portal.requests.length;
      limited.api.sendText({ from: ru, text: '7300151 7300168 7300185 7300202' });
      await limited.settle();
      // Two of the four fit the five a minute: looked up; the answer says the other two were not.
      expect(limited.portal.requests.length - before).toBe(2);
      expect(limited.api.messagesIn(ru.id)).toHaveLength(2);
      expect(limited.api.messagesIn(ru.id).at(-1)?.text).toContain('Ещё 2 номера не искал: слишком много запросов подряд, подождите минуту.');
      const en = limited.api.createUser({ language_code: 'en' });
      for (let i = 0; i < 5; i += 1) await limited.ask(en, `/order ${7_300_100 + 17 * i}`);
      const after = limited.portal.requests.length;
      expect((await limited.ask(en, '0007300100')).text).toBe('Too many requests in a row. Please wait a minute and try again.');
      await limited.settle();
      expect(limited.portal.requests.length).toBe(after);
    } finally {
      await limited.close();
    }
  });
});
