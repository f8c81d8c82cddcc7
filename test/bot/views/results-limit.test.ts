import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../src/format.ts';
import { createTranslator } from '../../../src/i18n.ts';
import type { Locale } from '../../../src/i18n.ts';
import type { OrderQuery, Query, SpecificationQuery } from '../../../src/query.ts';
import type { Order, Specification } from '../../../src/portal/schemas.ts';
import { TELEGRAM_TEXT_LIMIT, visibleLength } from '../../../src/bot/views/common/html.ts';
import { renderResultsText, type ResultsText } from '../../../src/bot/views/results.ts';
import { makeOrder } from '../../fixtures/portal-records.ts';
import { hugeOrder, hugeSpecification, longText, worstOrder, worstSpecification } from '../../fixtures/worst-case.ts';
import { formatMessageText } from '../../support/bot-api/text.ts';

// Any page the portal can send must render as one message Telegram accepts.

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');
const orderQuery: OrderQuery = { resource: 'order', filter: 'SAP_ID', value: '0007300100' };
const specQuery: SpecificationQuery = { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' };

const page = (query: Query, items: ReadonlyArray<Order | Specification>, total = items.length) => ({
  resource: query.resource,
  query,
  items,
  total,
  offset: 0,
  limit: 20,
}) as ResultsText;

/** What Telegram would store: throws on malformed HTML or a text over 4096 characters. */
const sendable = (html: string) => formatMessageText({ text: html, parseMode: 'HTML', entities: undefined }, { strictHtmlAmpersand: true });

describe('the whole text stays within 4096 characters', () => {
  const range = (count: number) => Array.from({ length: count }, (_, index) => index);
  const titles = (text: string, word: string) => text.split('\n').filter((line) => /^<b>\d+\.<\/b> /.test(line) && line.includes(`<b>${word}`)).length;

  describe.each([
    ['ru', ru, 'Заказ №', 'Спецификация №', 'не поместил'],
    ['en', en, 'Order No.', 'Specification No.', 'did not fit'],
  ] as const)('%s', (_locale, { t, fmt }, orderTitle, specTitle, notShown) => {
    test('20 orders × 60 positions with 300-character names: every order shown', () => {
      const text = renderResultsText(page({ ...orderQuery, value: 'x'.repeat(100) }, range(20).map((i) => worstOrder(i)), 9999), t, fmt);
      expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
      expect(sendable(text).text.length).toBe(visibleLength(text));
      expect(titles(text, orderTitle)).toBe(20);
      expect(text).not.toContain(notShown);
    });

    test('20 specifications × 60 positions with 300-character names: every one shown', () => {
      const text = renderResultsText(page(specQuery, range(20).map((i) => worstSpecification(i)), 9999), t, fmt);
      expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
      expect(sendable(text).text.length).toBe(visibleLength(text));
      expect(titles(text, specTitle)).toBe(20);
    });

    test('5 records × 60 positions: fewer positions, but some still listed', () => {
      const text = renderResultsText(page(orderQuery, range(5).map((i) => worstOrder(i))), t, fmt);
      expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
      expect(titles(text, orderTitle)).toBe(5);
      expect(text.split('\n').filter((line) => line.startsWith('• ')).length).toBeGreaterThanOrEqual(5);
    });

    test('one record with 1000 positions keeps three of them', () => {
      const text = renderResultsText(page(specQuery, [worstSpecification(1, 1000)]), t, fmt);
      expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
      expect(text.split('\n').filter((line) => line.startsWith('• ')).length).toBe(3);
    });

    test('every field 300 characters and every list 50 long: cards cut, and the message says how many', () => {
      for (const [query, items, title] of [
        [orderQuery, range(20).map((i) => hugeOrder(i)), orderTitle],
        [specQuery, range(20).map((i) => hugeSpecification(i)), specTitle],
      ] as const) {
        const text = renderResultsText(page(query, items, 20), t, fmt);
        expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
        expect(sendable(text).text.length).toBe(visibleLength(text));
        const shown = titles(text, title);
        expect(shown).toBeGreaterThan(0);
        if (shown < 20) expect(text).toMatch(new RegExp(`${20 - shown}[^\\n]*${notShown}[^\\n]*$`));
      }
    });

    test('names of characters outside the BMP, and text that escaping makes five times longer', () => {
      const emoji = makeOrder({ POSITION: range(60).map((id) => ({ ID: id, MATERIAL_NAME: '🚚'.repeat(300), QUANTITY: 1, MEASURE: 'ST' })) });
      const escapes = makeOrder({ CRM_ID: '<'.repeat(1000), POSITION: range(60).map((id) => ({ ID: id, MATERIAL_NAME: '&'.repeat(300) })) });
      for (const items of [range(20).map(() => emoji), range(20).map(() => escapes)]) {
        const text = renderResultsText(page(orderQuery, items), t, fmt);
        expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
        expect(sendable(text).text.length).toBe(visibleLength(text));
      }
    });
  });

  test('long text is shortened with "…" before cards are cut', () => {
    const orders = range(20).map((i) => makeOrder({ SAP_ID: String(i), CRM_ID: longText(300), POSITION: null }));
    const text = renderResultsText(page(orderQuery, orders), ru.t, ru.fmt);
    expect(visibleLength(text)).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(titles(text, 'Заказ №')).toBe(20);
    expect(text).toMatch(/\nНомер CRM: Труба 1020х12 &quot;К60&quot; .{5,80}…\n/);
  });
});
