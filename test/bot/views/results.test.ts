import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator } from '../../../src/i18n.ts';
import type { Locale } from '../../../src/i18n.ts';
import { ORDER_FILTERS, SPECIFICATION_FILTERS } from '../../../src/query.ts';
import type { OrderQuery, Query, SpecificationQuery } from '../../../src/query.ts';
import type { Order, Specification } from '../../../src/portal/schemas.ts';
import { describeQuery } from '../../../src/bot/views/common/describe-query.ts';
import { renderNothingFound, renderResultsText, type ResultsText } from '../../../src/bot/views/results.ts';
import { makeOrder, makeSpecification } from '../../fixtures/portal-records.ts';
import { formatMessageText } from '../../support/bot-api/text.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');
const orderQuery: OrderQuery = { resource: 'order', filter: 'SAP_ID', value: '0007300100' };
const specQuery: SpecificationQuery = { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' };

const page = (query: Query, items: ReadonlyArray<Order | Specification>, total = items.length, offset = 0) => ({
  resource: query.resource,
  query,
  items,
  total,
  offset,
  limit: 20,
}) as ResultsText;

/** What Telegram would store: throws on malformed HTML or a text over 4096 characters. */
const sendable = (html: string) => formatMessageText({ text: html, parseMode: 'HTML', entities: undefined }, { strictHtmlAmpersand: true });

describe('results message', () => {
  test('Russian: header, filter echo, one card per record separated by a blank line', () => {
    const orders = [makeOrder({ POSITION: null }), makeOrder({ SAP_ID: '0007300101', CRM_ID: '', POSITION: null, PREPAYMENT: null })];
    expect(renderResultsText(page(orderQuery, orders, 23), ru.t, ru.fmt)).toBe(
      [
        '<b>Заказы 1–2 из 23</b>',
        'Поиск: номер SAP «0007300100»',
        '',
        '<b>1.</b> <b>Заказ № 0007300100</b> от 15.03.2026',
        'Номер CRM: CRM-2026-004512',
        'Статус: Производство',
        'Сумма: 1\u00a0234\u00a0567,89',
        'Предоплата: 500\u00a0000,00',
        'Количество: 12,345\u00a0т · 120,5\u00a0м · 10\u00a0шт',
        '',
        '<b>2.</b> <b>Заказ № 0007300101</b> от 15.03.2026',
        'Статус: Производство',
        'Сумма: 1\u00a0234\u00a0567,89',
        'Количество: 12,345\u00a0т · 120,5\u00a0м · 10\u00a0шт',
      ].join('\n'),
    );
  });

  test('English header for specifications on a later page', () => {
    const specs = [makeSpecification(), makeSpecification({ SPECIFICATION_NUMBER: '13' })];
    const text = renderResultsText(page(specQuery, specs, 22, 20), en.t, en.fmt);
    expect(text).toMatch(/^<b>Specifications 21–22 of 22<\/b>\nSearch: contract no\. “ДП-77\/2026”\n\n<b>21\.<\/b> <b>Specification No\. 12<\/b>\n/);
    expect(text).toContain('\n\n<b>22.</b> <b>Specification No. 13</b>\n');
    expect(renderResultsText(page(specQuery, specs, 1234, 20), ru.t, ru.fmt)).toMatch(
      /^<b>Спецификации 21–22 из 1\u00a0234<\/b>\nПоиск: номер договора «ДП-77\/2026»\n\n/,
    );
  });

  test('a total smaller than the records shown is not believed', () => {
    expect(renderResultsText(page(orderQuery, [makeOrder(), makeOrder()], 1, 5), en.t, en.fmt)).toMatch(/^<b>Orders 6–7 of 7<\/b>\n/);
  });

  test('the user\'s value is escaped in the echo', () => {
    const query: OrderQuery = { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба <530> & "К52"' };
    const text = renderResultsText(page(query, [makeOrder()]), ru.t, ru.fmt);
    expect(text).toContain('\nПоиск: материал «труба &lt;530&gt; &amp; &quot;К52&quot;»\n');
    expect(sendable(text).text).toContain('Поиск: материал «труба <530> & "К52"»');
  });

  test('no records: the nothing-found message', () => {
    expect(renderResultsText(page(orderQuery, [], 0), en.t, en.fmt)).toBe(renderNothingFound(orderQuery, en.t, en.fmt));
  });
});

describe('nothing found', () => {
  test('Russian and English, with the filter echoed', () => {
    expect(renderNothingFound(orderQuery, ru.t)).toBe(
      'Заказы не найдены.\nПоиск: номер SAP «0007300100»\nПроверьте запрос; примеры — в /help.',
    );
    expect(renderNothingFound(specQuery, en.t)).toBe(
      'No specifications found.\nSearch: contract no. “ДП-77/2026”\nCheck the search; see /help for examples.',
    );
  });

  test('escaped, and a date filter reads as a local date when a formatter is given', () => {
    const query: SpecificationQuery = { resource: 'specification', filter: 'ORDER[DATE_ORDER]', value: '2026-03-15' };
    expect(renderNothingFound(query, ru.t, ru.fmt)).toContain('\nПоиск: дата заявки на производство «15.03.2026»\n');
    expect(renderNothingFound(query, en.t)).toContain('\nSearch: production request date “2026-03-15”\n');
    expect(renderNothingFound({ ...orderQuery, value: '<b>' }, en.t)).toContain('“&lt;b&gt;”');
  });
});

describe('describeQuery', () => {
  test('every filter has a label in both languages', () => {
    const queries: Query[] = [
      ...ORDER_FILTERS.map((filter): Query => ({ resource: 'order', filter, value: '1' })),
      ...SPECIFICATION_FILTERS.map((filter): Query => ({ resource: 'specification', filter, value: '1' })),
    ];
    expect(queries.map((query) => describeQuery(query, ru.t))).toEqual([
      'номер SAP «1»',
      'номер CRM «1»',
      'дата заказа «1»',
      'статус «1»',
      'материал «1»',
      'код материала «1»',
      'номер договора «1»',
      'номер спецификации «1»',
      'статус «1»',
      'тип статуса «1»',
      'дата заявки на производство «1»',
      'материал «1»',
      'код материала «1»',
    ]);
    expect(queries.map((query) => describeQuery(query, en.t))).toEqual([
      'SAP no. “1”',
      'CRM no. “1”',
      'order date “1”',
      'status “1”',
      'material “1”',
      'material code “1”',
      'contract no. “1”',
      'specification no. “1”',
      'status “1”',
      'status type “1”',
      'production request date “1”',
      'material “1”',
      'material code “1”',
    ]);
  });

  test('a date filter with a formatter', () => {
    expect(describeQuery({ resource: 'order', filter: 'DATE_ORDER', value: '2026-03-15' }, en.t, en.fmt)).toBe('order date “15 Mar 2026”');
  });

  test('a very long value is shortened', () => {
    expect(describeQuery({ ...orderQuery, value: 'x'.repeat(500) }, en.t)).toBe(`SAP no. “${'x'.repeat(99)}…”`);
  });
});

describe('when the page was fetched', () => {
  const fetchedAt = new Date('2026-11-23T11:05:00Z');
  const withTime = (extra: { fetchedAt?: Date; now?: Date }) => ({ ...page(orderQuery, [makeOrder({ POSITION: null })]), ...extra });

  test('the time of day in Moscow under the filter, when fetched today', () => {
    expect(renderResultsText(withTime({ fetchedAt }), ru.t, ru.fmt)).toMatch(
      /^<b>Заказы 1–1 из 1<\/b>\nПоиск: номер SAP «0007300100»\n<i>обновлено <tg-time unix="1795431900" format="t">14:05<\/tg-time><\/i>\n\n<b>1\.<\/b> <b>Заказ № 0007300100<\/b>/,
    );
    expect(renderResultsText(withTime({ fetchedAt, now: new Date('2026-11-23T20:00:00Z') }), en.t, en.fmt)).toMatch(
      /^<b>Orders 1–1 of 1<\/b>\nSearch: SAP no\. “0007300100”\n<i>updated <tg-time unix="1795431900" format="t">14:05<\/tg-time><\/i>\n\n/,
    );
  });

  test('with the date when that was another day in Moscow', () => {
    const now = new Date('2026-11-23T21:00:00Z');
    expect(renderResultsText(withTime({ fetchedAt, now }), ru.t, ru.fmt).split('\n')[2]).toBe('<i>обновлено <tg-time unix="1795431900" format="dt">23.11.2026 14:05</tg-time></i>');
    expect(renderResultsText(withTime({ fetchedAt, now }), en.t, en.fmt).split('\n')[2]).toBe('<i>updated <tg-time unix="1795431900" format="dt">23 Nov 2026, 14:05</tg-time></i>');
  });

  test('in the time zone the formatter was made for', () => {
    const utc = createFormatter('en', 'UTC');
    expect(renderResultsText(withTime({ fetchedAt }), en.t, utc).split('\n')[2]).toBe('<i>updated <tg-time unix="1795431900" format="t">11:05</tg-time></i>');
  });

  test('no line without fetchedAt, and the line is valid Telegram HTML', () => {
    expect(renderResultsText(withTime({}), ru.t, ru.fmt)).not.toContain('обновлено');
    expect(sendable(renderResultsText(withTime({ fetchedAt }), ru.t, ru.fmt)).text).toContain('\nобновлено 14:05\n');
  });
});
