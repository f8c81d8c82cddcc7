import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('lookups in a private chat', () => {
  it('shows an order card in Russian, as the glossary words it', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const reply = await h.ask(user, '/order 0007300100');
    // Thousands are grouped with no-break spaces, and a unit never wraps away from its number.
    expect(reply.text).toContain('9\u00a0624\u00a0307,00 RUB');
    expect(reply.text).toContain('79,473\u00a0т');
    expect(reply.text.replaceAll('\u00a0', ' ')).toBe(
      [
        'Заказы 1–1 из 1',
        'Поиск: номер SAP «0007300100»',
        'обновлено 14:05',
        '',
        '1. Заказ № 0007300100 от 18.11.2025',
        'Номер CRM: CRM-2025-004290',
        'Статус: Производство',
        'Сумма: 9 624 307,00 RUB',
        'Предоплата: 2 887 292,10',
        'Количество: 79,473 т · 834 м · 73 шт',
        'Позиции (2):',
        '• Труба 530х8 К52 ГОСТ 20295-85 — 77,662 т',
        '• Труба б/ш 159х6 09Г2С ГОСТ 8732-78 — 80 м',
      ].join('\n'),
    );
    expect(reply.reply_to_message_id).toBeUndefined();
    expect(reply.buttons.map((button) => button.text)).toEqual(['1', '📊 Excel', '🔄 Обновить', '🔔 Следить']);
    expect(h.portal.requests.at(-1)).toBe('/api/lk/order?SAP_ID=0007300100&limit=5&offset=0');
  });

  it('speaks English to an English user', async () => {
    const user = h.api.createUser({ language_code: 'en-GB' });
    const reply = await h.ask(user, '/order 0007300100');
    expect(reply.text).toContain('Orders 1–1 of 1');
    expect(reply.text).toContain('Total: 9,624,307.00 RUB');
    expect(reply.text).toContain('18 Nov 2025');
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

describe('every filter keyword reaches the portal as its parameter', () => {
  it.each([
    ['/order 7300100', 'SAP_ID=7300100'],
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
    ['/spec дп-77/2026', 'CONTRACT_NUMBER=%D0%B4%D0%BF-77%2F2026'],
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
    expect(reply.text).toMatch(/^(Orders|Specifications) 1–\d+ of \d+\n/);
  });
});
