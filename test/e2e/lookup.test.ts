import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('lookups in a private chat', () => {
  it('opens the one order an exact number finds at once, in Russian, as the glossary words it', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const reply = await h.ask(user, '/order 0007300100');
    // Thousands are grouped with no-break spaces, and a unit never wraps away from its number.
    expect(reply.text).toContain('9\u00a0624\u00a0307,00 RUB');
    expect(reply.text).toContain('79,473\u00a0т');
    expect(reply.text.replaceAll('\u00a0', ' ')).toBe(
      [
        'Заказ № 0007300100 от 18.11.2025',
        'Номер CRM: CRM-2025-004290',
        'Статус: Производство (production)',
        'Сумма: 9 624 307,00 RUB',
        'Предоплата: 2 887 292,10 RUB',
        'Количество: 79,473 т · 834 м · 73 шт',
        // Its positions, one table (a rich message: the emulator's plain text joins the cells with |).
        '№ | Код | Материал | Кол-во | Цена | Сумма | Вал.',
        '10 | 10012345 | Труба 530х8 К52 ГОСТ 20295-85 | 77,662 т | 120 500,00 | 9 358 271,00 | RUB',
        '20 | 10012371 | Труба б/ш 159х6 09Г2С ГОСТ 8732-78 | 80 м | 3 325,45 | 266 036,00 | RUB',
        'обновлено 14:05',
      ].join('\n'),
    );
    expect(reply.reply_to_message_id).toBeUndefined();
    // No list to go back to: no «◀ К списку».
    expect(reply.buttons.map((button) => button.text)).toEqual(['📦 Заказы с материалом…', '📄 Спецификации с материалом…', '📋 0007300100', '🔄 Обновить', '🔔 Следить']);
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?SAP_ID=0007300100&limit=5&offset=0');
  });

  it('speaks English to an English user', async () => {
    const user = h.api.createUser({ language_code: 'en-GB' });
    const reply = await h.ask(user, '/order 0007300100');
    expect(reply.text).toContain('Order No. 0007300100');
    expect(reply.text).toContain('Total: 9,624,307.00 RUB');
    expect(reply.text).toContain('18 Nov 2025');
    expect(reply.buttons.map((button) => button.text)).not.toContain('◀ Back to list');
  });

  it('falls back to DEFAULT_LANGUAGE when Telegram gives no language', async () => {
    const user = h.api.createUser({ language_code: undefined });
    const reply = await h.ask(user, '/help');
    expect(reply.text).toContain('Заказы (заявки на производство)');
  });

  it('shows specifications of a contract with paging', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const reply = await h.ask(user, '/spec ДП-77/2026');
    expect(reply.text.split('\n').slice(0, 2)).toEqual(['Спецификации 1–5 из 8', 'Поиск: номер договора «ДП-77/2026»']);
    expect(reply.text).toContain('бессрочно');
    expect(reply.text).toContain('не запланировано');
    expect(reply.text).toContain('ООО «СпецСтрой & Ко»');
    expect(reply.buttons.map((button) => button.text)).toEqual(['1', '2', '3', '4', '5', '◀', '1/2', '▶', '📊 Excel', '🔄 Обновить', '🔔 Следить']);
  });

  it('says nothing was found, echoing the filter', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(user, '/spec number 99999');
    expect(reply.text).toContain('99999');
    expect(reply.text.toLowerCase()).toContain('no specifications');
    expect(reply.buttons).toEqual([]);
  });

  it('welcomes with /start and says when the data is demo data', async () => {
    const demo = await startHarness({ demo: true });
    try {
      const user = demo.api.createUser({ language_code: 'en' });
      const reply = await demo.ask(user, '/start');
      expect(reply.text).toContain('demo data');
      expect(reply.text).toContain('/order 0007300100');
    } finally {
      await demo.close();
    }
    const user = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(user, '/start')).text).not.toContain('demo data');
  });
});

describe('dates as people write them, in TIME_ZONE (issue 30)', () => {
  it.each([
    ['/order дата сегодня', 'DATE_ORDER=2026-11-23'],
    ['/order дата вчера', 'DATE_ORDER=2026-11-22'],
    ['/order дата 15 марта', 'DATE_ORDER=2026-03-15'],
    ['/spec дата 15 марта 2026', 'ORDER%5BDATE_ORDER%5D=2026-03-15'],
    ['/spec дата 15.03.26', 'ORDER%5BDATE_ORDER%5D=2026-03-15'],
  ])('%s (ru)', async (command, parameter) => {
    const user = h.api.createUser({ language_code: 'ru' });
    await h.ask(user, command);
    expect(h.portal.requests.at(-1)).toBe(`/api/lk/${command.startsWith('/order') ? 'order' : 'specification'}?${parameter}&limit=5&offset=0`);
  });

  it('takes the day it is in TIME_ZONE, not on the server: at 01:00 in Moscow it is already the next day', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const saved = h.clock.now;
    h.clock.now = new Date('2026-11-23T22:30:00Z');
    try {
      await h.ask(user, '/order date today');
      expect(h.portal.requests.at(-1)).toBe('/api/lk/order?DATE_ORDER=2026-11-24&limit=5&offset=0');
    } finally {
      h.clock.now = saved;
    }
  });

  it('refuses a date that does not exist, with examples (ru)', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const before = h.portal.requests.length;
    const reply = await h.ask(user, '/order дата 30 февраля');
    expect(reply.text).toContain('Не удалось разобрать дату «30 февраля»: такой даты нет или она написана непонятно. Например: 15.03.2026, 15.03.26, 2026-03-15, 15 марта, сегодня, вчера.');
    expect(h.portal.requests.length).toBe(before);
  });
});

describe('every filter keyword reaches the portal as its parameter', () => {
  it.each([
    ['/order 7300100', 'SAP_ID=0007300100'],
    ['/order crm crm-2026-004512', 'CRM_ID=CRM-2026-004512'],
    ['/order crm CRM-2026-004512', 'CRM_ID=CRM-2026-004512'],
    ['/order срм CRM-2026-004512', 'CRM_ID=CRM-2026-004512'],
    ['/order date 15.03.2026', 'DATE_ORDER=2026-03-15'],
    ['/order дата 2026-03-15', 'DATE_ORDER=2026-03-15'],
    ['/order status production', 'STATUS=production'],
    ['/order Статус production_evaluation', 'STATUS=production_evaluation'],
    ['/order material 530х8', 'POSITION%5BMATERIAL_NAME%5D=530%D1%858'],
    ['/order материал К60', 'POSITION%5BMATERIAL_NAME%5D=%D0%9A60'],
    ['/order code 000000000010012345', 'POSITION%5BMATERIAL_SAP_ID%5D=000000000010012345'],
    ['/order КОД 000000000010012345', 'POSITION%5BMATERIAL_SAP_ID%5D=000000000010012345'],
    ['/spec дп-77/2026', 'CONTRACT_NUMBER=%D0%94%D0%9F-77%2F2026'],
    ['/spec type zsdzmp', 'STATUS_TYPE=ZSDZMP'],
    ['/order date 15.03.26', 'DATE_ORDER=2026-03-15'],
    ['/order дата 15 марта', 'DATE_ORDER=2026-03-15'],
    ['/spec date 15 марта 2026', 'ORDER%5BDATE_ORDER%5D=2026-03-15'],
    ['/order date вчера', 'DATE_ORDER=2026-11-22'],
    ['/order date today', 'DATE_ORDER=2026-11-23'],
    ['/spec number 12', 'SPECIFICATION_NUMBER=12'],
    ['/spec номер 1', 'SPECIFICATION_NUMBER=1'],
    ['/spec status 20', 'STATUS=20'],
    ['/spec type ZSDZMP', 'STATUS_TYPE=ZSDZMP'],
    ['/spec тип ZSD_DOG', 'STATUS_TYPE=ZSD_DOG'],
    ['/spec date 15.03.2026', 'ORDER%5BDATE_ORDER%5D=2026-03-15'],
    ['/spec material труба', 'POSITION%5BMATERIAL_NAME%5D=%D1%82%D1%80%D1%83%D0%B1%D0%B0'],
    ['/spec code 000000000010012345', 'POSITION%5BMATERIAL_SAP_ID%5D=000000000010012345'],
  ])('%s', async (command, parameter) => {
    const user = h.api.createUser({ language_code: 'en' });
    const reply = await h.ask(user, command);
    expect(h.portal.requests.at(-1)).toBe(`/api/lk/${command.startsWith('/order') ? 'order' : 'specification'}?${parameter}&limit=5&offset=0`);
    // A list, one record opened at once, or nothing found: the portal was asked, as it should be.
    expect(reply.text).toMatch(/^(Orders|Specifications) 1–\d+ of \d+\n|^(Order|Specification) No\. |^No (orders|specifications) found/);
  });
});
