import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator, type Locale } from '../../../src/i18n.ts';
import type { Results } from '../../../src/portal/client.ts';
import type { Order, Specification } from '../../../src/portal/schemas.ts';
import type { OrderQuery, SpecificationQuery } from '../../../src/query.ts';
import { unpackCallback } from '../../../src/bot/callback-data/codec.ts';
import { renderDateQuestion, renderMaterialAnswer, renderPasted, type PastedItem } from '../../../src/bot/views/pasted.ts';
import { makeOrder, makeSpecification } from '../../fixtures/portal-records.ts';
import { formatMessageText } from '../../support/bot-api/text.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');

const orders = (value: string, items: Order[], total = items.length): PastedItem => {
  const query: OrderQuery = { resource: 'order', filter: 'SAP_ID', value };
  const results: Results = { resource: 'order', query, paging: { limit: 5, offset: 0 }, page: { items, total, limit: 5, offset: 0 } };
  return { kind: 'records', ref: { query }, results };
};
const specs = (value: string, items: Specification[], total = items.length): PastedItem => {
  const query: SpecificationQuery = { resource: 'specification', filter: 'CONTRACT_NUMBER', value };
  const results: Results = { resource: 'specification', query, paging: { limit: 5, offset: 0 }, page: { items, total, limit: 5, offset: 0 } };
  return { kind: 'records', ref: { key: 'stored-key' }, results };
};
const labels = (view: { keyboard: Array<Array<{ text: string }>> } | undefined) => view?.keyboard.flat().map((button) => button.text);
/** What Telegram would store: throws on malformed HTML or a text over 4096 characters. */
const sendable = (html: string) => formatMessageText({ text: html, parseMode: 'HTML', entities: undefined }, { strictHtmlAmpersand: true });

describe('several pasted numbers', () => {
  test('Russian: a short card per record, a line for what found nothing, the rest not looked up', () => {
    const view = renderPasted(
      { items: [orders('0007300100', [makeOrder({ POSITION: null })]), orders('0007399999', [])], style: 'cards', more: 2, slowed: 0 },
      ru.t,
      ru.fmt,
    );
    expect(view?.text.replaceAll('\u00a0', ' ')).toBe(
      [
        '<b>По номерам из сообщения</b>',
        '',
        '<b>1.</b> <b>Заказ № 0007300100</b> от 15.03.2026',
        'Статус: Производство',
        'Сумма: 1 234 567,89',
        '',
        'номер SAP «0007399999»: ничего не найдено.',
        '',
        'Ещё 2 номера из сообщения не искал: не больше 10 за раз.',
      ].join('\n'),
    );
    expect(labels(view)).toEqual(['1']);
    expect(unpackCallback((view?.keyboard[0]?.[0] as { callback_data: string }).callback_data)).toMatchObject({ type: 'openRecord', index: 0, limit: 5, offset: 0 });
  });

  test('English: the first three specifications of a contract, and a button for them all', () => {
    const found = [1, 2, 3, 4].map((n) => makeSpecification({ SPECIFICATION_NUMBER: String(n), SAP_ID: `004001234${n}` }));
    const view = renderPasted({ items: [specs('ДП-77/2026', found, 8)], style: 'cards', more: 0, slowed: 1 }, en.t, en.fmt);
    expect(view?.text).toMatch(/^<b>For the numbers in the message<\/b>\n\n<b>1\.<\/b> <b>Specification No\. 1<\/b>/);
    expect(view?.text).toContain('… and 5 more records: button 📋 ДП-77/2026 · 8');
    expect(view?.text).toContain('1 more number was not looked up: too many requests in a row, please wait a minute.');
    expect(labels(view)).toEqual(['1', '2', '3', '📋 ДП-77/2026 · 8']);
    expect(() => sendable(view!.text)).not.toThrow();
  });

  test('fits 4096 characters whatever is found: cards become lines, then lines are left out, said in a line', () => {
    const long = 'Т'.repeat(3_000);
    const items = Array.from({ length: 10 }, (_, n) => specs(`ДП-${n}/2026`, [1, 2, 3].map((k) => makeSpecification({ SPECIFICATION_NUMBER: `${k}${long}`, CONTRACT_NUMBER: `ДП-${n}/2026${long}` }))));
    const view = renderPasted({ items: [orders('0007399999', []), ...items.slice(0, 9)], style: 'cards', more: 0, slowed: 0 }, ru.t, ru.fmt);
    expect(() => sendable(view!.text)).not.toThrow();
    expect(view?.text).not.toContain('Статус');
    // Records as lines, still a line for the number that found nothing, and what did not fit counted.
    expect(view?.text).toContain('номер SAP «0007399999»: ничего не найдено.');
    expect(view?.text).toMatch(/Ещё \d+ номер\S* не поместил/);
    const lines = renderPasted({ items, style: 'lines', more: 0, slowed: 0 }, en.t, en.fmt);
    expect(() => sendable(lines!.text)).not.toThrow();
  });
});

describe('a group’s chatter (/autolookup)', () => {
  test('a compact line per record found and a number button each; nothing to say when nothing was found', () => {
    const view = renderPasted({ items: [orders('0007300100', [makeOrder()]), orders('0007399999', [])], style: 'lines', more: 0, slowed: 0 }, ru.t, ru.fmt);
    expect(view?.text.replaceAll('\u00a0', ' ')).toBe('<b>1.</b> <b>Заказ № 0007300100</b> · 15.03.2026 · Производство · 1 234 567,89 RUB');
    expect(labels(view)).toEqual(['1']);
    const spec = renderPasted({ items: [specs('ДП-77/2026', [makeSpecification()])], style: 'lines', more: 0, slowed: 0 }, en.t, en.fmt);
    expect(spec?.text).toMatch(/^<b>1\.<\/b> <b>Specification No\. \S+<\/b>, contract ДП-77\/2026 · status \d+, \w+$/);
    expect(renderPasted({ items: [orders('0007399999', []), { kind: 'material', code: '000000000010012345', orders: 0, specifications: 0 }], style: 'lines', more: 0, slowed: 3 }, en.t, en.fmt)).toBeUndefined();
  });
});

describe('a material code and a date', () => {
  test('a material code: its orders and specifications as two buttons with counts; none: nothing found', () => {
    const view = renderMaterialAnswer({ kind: 'material', code: '000000000010012345', orders: 24, specifications: 0 }, en.t, en.fmt);
    expect(view.text).toBe('Material code 10012345: orders — 24, specifications — 0.');
    expect(labels(view)).toEqual(['📦 Orders · 24']);
    expect(unpackCallback((view.keyboard[0]?.[0] as { callback_data: string }).callback_data)).toEqual({
      type: 'lookup',
      ref: { query: { resource: 'order', filter: 'POSITION[MATERIAL_SAP_ID]', value: '000000000010012345' } },
    });
    expect(renderMaterialAnswer({ kind: 'material', code: '000000000010012345', orders: 0, specifications: 0 }, ru.t, ru.fmt).text).toContain('Заказы не найдены');
  });

  test('a date: orders of that date, or specifications of requests of that date', () => {
    const view = renderDateQuestion('2026-03-15', ru.t, ru.fmt);
    expect(view.text).toBe('15.03.2026: искать заказы от этой даты или спецификации с заявками от этой даты?');
    expect(view.keyboard.map((row) => row.map((button) => unpackCallback((button as { callback_data: string }).callback_data)))).toEqual([
      [{ type: 'lookup', ref: { query: { resource: 'order', filter: 'DATE_ORDER', value: '2026-03-15' } } }],
      [{ type: 'lookup', ref: { query: { resource: 'specification', filter: 'ORDER[DATE_ORDER]', value: '2026-03-15' } } }],
    ]);
  });
});
