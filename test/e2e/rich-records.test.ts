import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InlineKeyboardButton, RichBlock } from '@grammyjs/types';
import { plainOf, type BotMessage } from '../support/bot-api/index.ts';
import { startHarness, type Harness } from '../support/harness.ts';
import { serveLargeOrders } from '../support/large-records.ts';

// Issue 31 with a current Bot API server (10.3): records as rich messages (a table, details
// blocks), the chooser of materials, disabled ◀ ▶, a copy button, styles, times as date_time
// entities, inline results as rich messages. Older servers: rich-fallback.test.ts.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { WATCH_INTERVAL_SECONDS: '1' } });
});
afterAll(() => h.close());

type Table = Extract<RichBlock, { type: 'table' }>;
const blocksOf = (message: BotMessage | undefined): RichBlock[] => message?.rich?.blocks ?? [];
const tableOf = (message: BotMessage | undefined): Table | undefined => blocksOf(message).find((block): block is Table => block.type === 'table');
const rowsOf = (table: Table | undefined) => table?.cells.map((row) => row.map((cell) => plainOf(cell.text))) ?? [];
const detailsOf = (message: BotMessage | undefined) =>
  blocksOf(message).flatMap((block) => (block.type === 'details' ? [{ summary: plainOf(block.summary), items: block.blocks.flatMap((inner) => (inner.type === 'list' ? inner.items.map((item) => item.blocks.map((b) => ('text' in b ? plainOf(b.text) : '')).join('')) : [])) }] : []));
const labels = (message: BotMessage | undefined) => message?.buttons.map((button) => button.text) ?? [];
/** Russian groups digits and joins a number to its unit with no-break spaces: read as plain spaces here. */
const spaced = (text: string | undefined) => (text ?? '').replace(/\u00a0/g, ' ');
const buttonOf = (message: BotMessage | undefined, text: string): InlineKeyboardButton | undefined => message?.buttons.find((button) => button.text === text);

/** A user opens the record behind button `n` of a lookup's results: the record comes as a message of its own. */
const open = async (language: 'ru' | 'en', command: string, n = '1') => {
  const user = h.api.createUser({ language_code: language });
  const list = await h.ask(user, command);
  const next = h.api.nextBotMessage(user.id);
  const pressed = await h.press(user, list, h.button(list, n));
  return { user, list, pressed, record: await next };
};

/** A user looks up one record by its number: the one record found opens at once, a rich message. */
const lookUp = async (language: 'ru' | 'en', command: string) => {
  const user = h.api.createUser({ language_code: language });
  return { user, record: await h.ask(user, command) };
};

describe('an order in full, as a rich message', () => {
  it('opened from results: a message of its own under them; the results page stays as it was', async () => {
    const { list, pressed, record } = await open('en', '/order status production', '2');
    expect(pressed.message?.text).toBe(list.text);
    expect(pressed.message?.edit_count).toBe(0);
    expect(record.message_id).not.toBe(list.message_id);
    expect(record.text).toMatch(/^Order No\. \d{10} dated /);
    expect(tableOf(record)).toBeDefined();
  });

  it('Russian: one order found opens at once; header with status, totals and prepayment in the currency; 60 positions in one table with line totals', async () => {
    h.clock.now = new Date('2026-11-23T11:05:00Z');
    const { user, record } = await lookUp('ru', '/order 0007300321');
    // No list of one before it: the lookup's one answer is the record.
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
    expect(spaced(record.text).split('\n').slice(0, 6)).toEqual([
      'Заказ № 0007300321 от 15.03.2026',
      'Номер CRM: CRM-2026-004771',
      'Статус: Производство (production)',
      'Сумма: 502 783 744,56 RUB',
      'Предоплата: 150 835 123,37 RUB',
      'Количество: 3 524,03 т · 22 909 м · 2 242 шт',
    ]);
    const rows = rowsOf(tableOf(record)).map((row) => row.map(spaced));
    expect(rows).toHaveLength(61);
    expect(rows[0]).toEqual(['№', 'Код', 'Материал', 'Кол-во', 'Цена', 'Сумма', 'Вал.']);
    expect(rows[1]).toEqual(['10', '10012345', 'Труба 530х8 К52 ГОСТ 20295-85', '64,519 т', '122 000,00', '7 871 318,00', 'RUB']);
    // Kilograms are a unit the bot knows: 563 kg at 167,50 a kg.
    expect(rows[4]?.slice(3, 6)).toEqual(['563 кг', '167,50', '94 302,50']);
    expect(tableOf(record)?.cells[1]?.[5]).toMatchObject({ align: 'right' });
    expect(rows.map((row) => row[0]).slice(-1)).toEqual(['600']);
    // The time it was fetched: a date_time entity each reader sees in their own zone, Moscow's time as its text.
    expect(blocksOf(record).at(-1)).toEqual({ type: 'footer', text: { type: 'italic', text: ['обновлено ', { type: 'date_time', unix_time: 1795431900, date_time_format: 't', text: '14:05' }] } });
    expect(h.api.failedCalls()).toEqual([]);
    expect(h.api.ignoredFields()).toEqual([]);
  });

  it('English: the same order, numbers and dates as the cards write them; a unit the bot does not know gets no line total', async () => {
    const { record } = await lookUp('en', '/order 0007300100');
    expect(spaced(record.text).split('\n').slice(0, 5)).toEqual([
      'Order No. 0007300100 dated 18 Nov 2025',
      'CRM no.: CRM-2025-004290',
      // The status as the portal gives it: its text, and its code beside it.
      expect.stringMatching(/^Status: \S.* \(production(_evaluation)?\)$/),
      'Total: 9,624,307.00 RUB',
      'Prepayment: 2,887,292.10 RUB',
    ]);
    expect(rowsOf(tableOf(record)).map((row) => row.map(spaced))).toEqual([
      ['No.', 'Code', 'Material', 'Qty', 'Price', 'Total', 'Cur.'],
      ['10', '10012345', 'Труба 530х8 К52 ГОСТ 20295-85', '77.662 t', '120,500.00', '9,358,271.00', 'RUB'],
      ['20', '10012371', 'Труба б/ш 159х6 09Г2С ГОСТ 8732-78', '80 m', '3,325.45', '266,036.00', 'RUB'],
    ]);
    // KMT is no unit the bot knows: whether the price is per it, it cannot tell, so no line total.
    const { record: kilometres } = await lookUp('en', '/order 0007300270');
    expect(rowsOf(tableOf(kilometres))[1]?.slice(3)).toEqual([expect.stringMatching(/\u00a0KMT$/), expect.stringMatching(/^[\d,]+\.\d\d$/), '—', 'RUB']);
  });

  it('its buttons: one each to choose a material, a copy of its number, Refresh and 🔔 (primary); no Back, found alone', async () => {
    const { record } = await lookUp('en', '/order 0007300100');
    expect(labels(record)).toEqual(['📦 Orders with a material…', '📄 Specifications with a material…', '📋 0007300100', '🔄 Refresh', '🔔 Watch']);
    expect(buttonOf(record, '📋 0007300100')).toEqual({ text: '📋 0007300100', copy_text: { text: '0007300100' } });
    expect(buttonOf(record, '🔔 Watch')).toMatchObject({ style: 'primary' });
    const watched = await h.press(h.api.createUser(), record, h.button(record, '🔔 Watch'), true);
    expect(buttonOf(watched.message, '🔕 Stop watching')).toMatchObject({ style: 'danger' });
    expect(watched.message?.text).toBe(record.text);
  });

  it('Refresh edits the rich message in place, with the new time', async () => {
    h.clock.now = new Date('2026-11-23T11:05:00Z');
    const { user, record } = await lookUp('ru', '/order 0007300100');
    h.clock.now = new Date('2026-11-23T12:00:00Z');
    const { message } = await h.press(user, record, h.button(record, '🔄 Обновить'));
    expect(message?.message_id).toBe(record.message_id);
    expect(message?.edit_count).toBe(1);
    expect(message?.text.split('\n').at(-1)).toBe('обновлено 15:00');
    expect(h.api.messagesIn(user.id)).toHaveLength(1);
  });
});

describe('a specification in full', () => {
  it('English: positions with their planned production, consignees, documents and production requests as details blocks', async () => {
    const { record } = await open('en', '/spec ДП-77/2026', '3');
    expect(record.text.split('\n')[0]).toBe('Specification No. 6');
    expect(record.text).toContain('Status: 15, type ZSDZMP');
    expect(rowsOf(tableOf(record))).toEqual([
      ['No.', 'Code', 'Material', 'Production'],
      ['10', '10012345', 'Труба 530х8 К52 ГОСТ 20295-85', 'not planned'],
    ]);
    expect(detailsOf(record)).toEqual([
      { summary: 'Consignees (2)', items: ['ООО «Уралтрубмонтаж»', 'ООО «СпецСтрой & Ко»'] },
      { summary: 'Documents (3)', items: ['No. ДС-6 к ДП-77/2026 dated 22 Mar 2026', 'No. Сч-001269 dated 25 Mar 2026', 'No. УПД-00316 dated 11 Apr 2026'] },
      { summary: 'Production requests (3)', items: ['0007300372 (No. CRM-2026-004882) dated 15 Mar 2026', '0007300389 (No. CRM-2026-004919) dated 15 Mar 2026', '0007300406 (No. CRM-2026-004956) dated 15 Mar 2026'] },
    ]);
    expect(buttonOf(record, '📋 ДП-77/2026 · 6')).toEqual({ text: '📋 ДП-77/2026 · 6', copy_text: { text: 'Specification No. 6 to contract No. ДП-77/2026' } });
    expect(labels(record)).toContain('Request 0007300372');
  });

  it('Russian: planned dates as the cards write them, «не запланировано» where there is none', async () => {
    const { record } = await open('ru', '/spec ДП-77/2026', '1');
    const planned = rowsOf(tableOf(record)).slice(1).map((row) => row[3]);
    expect(planned.length).toBeGreaterThan(0);
    for (const date of planned) expect(date).toMatch(/^(\d{2}\.\d{2}\.\d{4}|не запланировано)$/);
    const summaries = detailsOf(record).map((details) => details.summary.replace(/ \(\d+\)$/, ''));
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) expect(['Грузополучатели', 'Документы', 'Заявки на производство']).toContain(summary);
    expect(buttonOf(record, labels(record).find((label) => label.startsWith('📋')) ?? '')).toMatchObject({ copy_text: { text: expect.stringMatching(/^Спецификация № \S+ к договору № ДП-77\/2026$/) } });
  });
});

describe('cross-links without the wall', () => {
  for (const [language, orders, back, found] of [
    ['en', '📦 Orders with a material…', '◀ Back to the record', /^Orders 1–\d+ of \d+$/],
    ['ru', '📦 Заказы с материалом…', '◀ К записи', /^Заказы 1–\d+ из \d+$/],
  ] as const) {
    it(`${language}: 📦 turns the keyboard into the record's materials; one finds the orders with it as a new message; Back restores`, async () => {
      const { user, record } = await lookUp(language, '/order 0007300321');
      const { message: chooser } = await h.press(user, record, h.button(record, orders));
      expect(chooser?.text).toBe(record.text);
      const materials = labels(chooser).filter((label) => label.startsWith('📦 '));
      expect(materials).toHaveLength(8);
      expect(materials[0]).toBe('📦 10012345 · Труба 530х8 К52 ГОСТ 20295-85');
      // More than a page of materials: the pager, ◀ disabled on the first page.
      const pager = chooser!.buttons.filter((button) => /^[◀▶]$|^\d+\/\d+$/.test(button.text));
      expect(pager[0]).toEqual({ text: '◀', disabled: {} });
      const reply = h.api.nextBotMessage(user.id);
      await h.press(user, chooser!, h.button(chooser, materials[0]!));
      expect((await reply).text.split('\n')[0]).toMatch(found);
      expect(h.portal.requests.at(-1)).toBe('/api/lk/order?POSITION%5BMATERIAL_SAP_ID%5D=000000000010012345&limit=5&offset=0');
      const { message: restored } = await h.press(user, chooser!, h.button(chooser, back));
      expect(labels(restored)).toEqual(labels(record));
      expect(restored?.text).toBe(record.text);
    });
  }

  it('📄 finds the specifications with a material', async () => {
    const { user, record } = await lookUp('en', '/order 0007300100');
    const { message: chooser } = await h.press(user, record, h.button(record, '📄 Specifications with a material…'));
    expect(labels(chooser)).toEqual(['📄 10012345 · Труба 530х8 К52 ГОСТ 20295-85', '📄 10012371 · Труба б/ш 159х6 09Г2С ГОСТ 8732-78', '◀ Back to the record']);
    const reply = h.api.nextBotMessage(user.id);
    await h.press(user, chooser!, h.button(chooser, '📄 10012345 · Труба 530х8 К52 ГОСТ 20295-85'));
    expect((await reply).text.split('\n')[0]).toMatch(/^Specifications 1–\d+ of \d+$/);
  });
});

describe('past Telegram limits', () => {
  it('an order of 600 positions is paged as the HTML view is: ◀ disabled on the first part, ▶ on the last', async () => {
    serveLargeOrders(h.portal, { status: 'huge', count: 1, nameLength: 30, positions: 600 });
    const { user, record } = await lookUp('en', '/order status huge');
    const pager = (message: BotMessage | undefined) => message?.buttons.filter((button) => /^[◀▶]$|^\d+\/\d+$/.test(button.text)) ?? [];
    expect(pager(record)).toEqual([{ text: '◀', disabled: {} }, { text: '1/2', callback_data: 'n' }, { text: '▶', callback_data: expect.stringMatching(/^r:5:0:0:1:/) }]);
    expect(record.text.split('\n')[0]).toBe('Order No. 0007500000 dated 15 Mar 2026 · part 1 of 2');
    const first = rowsOf(tableOf(record)).length - 1;
    const { message: second } = await h.press(user, record, h.button(record, '▶'));
    expect(pager(second).at(-1)).toEqual({ text: '▶', disabled: {} });
    expect(first + rowsOf(tableOf(second)).length - 1).toBe(600);
    expect(h.api.failedCalls()).toEqual([]);
  });
});

describe('results pages', () => {
  it('stay text messages, with ◀ shown disabled on the first page and ▶ on the last', async () => {
    const user = h.api.createUser({ language_code: 'ru' });
    const list = await h.ask(user, '/order status production');
    expect(list.rich).toBeUndefined();
    expect(list.buttons.filter((button) => /^[◀▶]$/.test(button.text))).toEqual([{ text: '◀', disabled: {} }, { text: '▶', callback_data: 'p:5:5:o3=production' }]);
    expect(list.entities).toContainEqual({ type: 'date_time', offset: expect.any(Number), length: 5, unix_time: expect.any(Number), date_time_format: 't' });
  });
});

describe('inline mode', () => {
  for (const [language, title] of [['ru', 'Заказ № 0007300100'], ['en', 'Order No. 0007300100']] as const) {
    it(`${language}: offers a record as a rich message (its table), its short card the description`, async () => {
      const user = h.api.createUser({ language_code: language });
      const id = h.api.sendInlineQuery({ from: user, query: '0007300100' });
      const answer = await h.api.waitForInlineAnswer(id);
      const [result] = answer.results as Array<{ title: string; description: string; input_message_content: { rich_message: { html: string } } }>;
      expect(result?.title).toContain(title);
      expect(spaced(result?.description)).toMatch(language === 'ru' ? /^18\.11\.2025 · Сумма: 9 624 307,00 RUB · 2 позиции$/ : /^18 Nov 2025 · Total: 9,624,307.00 RUB · 2 positions$/);
      expect(result?.input_message_content.rich_message.html).toMatch(/^<h3><b>.*<table bordered striped><tr><th>/);
      expect(h.api.failedCalls()).toEqual([]);
    });
  }
});

describe('times in the reader’s zone', () => {
  for (const [language, heading, updated] of [['ru', '🔔 Изменения', 'обновлено'], ['en', '🔔 Changes', 'updated']] as const) {
    it(`${language}: a notification tells when the change was found as a date_time entity over the TIME_ZONE text`, async () => {
      h.clock.now = new Date('2026-11-23T11:05:00Z');
      const user = h.api.createUser({ language_code: language });
      await h.ask(user, '/watch 0007300100');
      h.portal.advanceDemoClock(60_000);
      const notification = () => h.api.messagesIn(user.id).find((message) => message.text.startsWith(heading));
      for (let round = 0; round < 40 && notification() === undefined; round += 1) {
        h.advance(200);
        await h.watches().runOnce();
      }
      const found = notification();
      const line = found?.text.split('\n').find((text) => text.startsWith(updated)) ?? '';
      expect(line).toMatch(new RegExp(`^${updated} 14:0\\d$`));
      const entity = found?.entities.find((candidate) => candidate.type === 'date_time');
      expect(entity).toMatchObject({ type: 'date_time', date_time_format: 't', length: 5 });
      expect(found?.text.slice(entity!.offset, entity!.offset + entity!.length)).toBe(line.slice(-5));
      expect(found?.buttons.at(-1)).toMatchObject({ style: 'danger' });
    });
  }
});

