import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { cachedCard } from '../../../../src/bot/views/common/card-cache.ts';
import { visibleLength } from '../../../../src/bot/views/common/html.ts';
import { renderResultsText, type ResultsText } from '../../../../src/bot/views/results.ts';
import { makeOrder } from '../../../fixtures/portal-records.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };

const counting = (html: string) => {
  let calls = 0;
  return { render: () => ((calls += 1), html), calls: () => calls };
};

describe('cachedCard', () => {
  test('renders a record once per language and step, and measures what Telegram counts', () => {
    const record = {};
    const card = counting('<b>Заказ</b> A &amp; B');
    const first = cachedCard(record, ru.t, ru.fmt, 0, card.render);
    const again = cachedCard(record, ru.t, ru.fmt, 0, card.render);
    expect(again).toBe(first);
    expect(first).toEqual({ html: '<b>Заказ</b> A &amp; B', length: 'Заказ A & B'.length });
    expect(card.calls()).toBe(1);
  });

  test('another step, another language or another record object is rendered anew', () => {
    const record = {};
    const card = counting('x');
    cachedCard(record, ru.t, ru.fmt, 0, card.render);
    cachedCard(record, ru.t, ru.fmt, 3, card.render);
    cachedCard(record, en.t, en.fmt, 0, card.render);
    // A page fetched again is new objects: its cards are rendered from its own data.
    cachedCard({}, ru.t, ru.fmt, 0, card.render);
    expect(card.calls()).toBe(4);
    cachedCard(record, en.t, en.fmt, 0, card.render);
    cachedCard(record, ru.t, ru.fmt, 3, card.render);
    expect(card.calls()).toBe(4);
  });
});

describe('a results page shown again', () => {
  const page = (items: ReturnType<typeof makeOrder>[]): ResultsText => ({
    resource: 'order',
    query: { resource: 'order', filter: 'STATUS', value: 'production' },
    items,
    total: 40,
    offset: 20,
    limit: 20,
  });

  test('reads the same as the first time, in each language, numbered by its offset', () => {
    const items = Array.from({ length: 20 }, (_, index) => makeOrder({ SAP_ID: String(7_300_100 + index).padStart(10, '0') }));
    for (const { t, fmt } of [ru, en]) {
      const first = renderResultsText(page(items), t, fmt);
      expect(renderResultsText(page(items), t, fmt)).toBe(first);
      expect(first).toContain('<b>21.</b> ');
      // The same records on another page of another query keep their cards but take its numbers.
      expect(renderResultsText({ ...page(items), offset: 0 }, t, fmt)).toContain('<b>1.</b> ');
    }
  });

  test('a page too long for one message still fits when its cards come from the cache', () => {
    const long = 'Труба стальная электросварная прямошовная '.repeat(6);
    const items = Array.from({ length: 20 }, (_, index) =>
      makeOrder({ SAP_ID: String(7_400_100 + index).padStart(10, '0'), POSITION: Array.from({ length: 6 }, () => makeOrder().POSITION[0]!).map((position) => ({ ...position, MATERIAL_NAME: long })) }),
    );
    // Numbers of one, two and three digits: each card's «N. » is counted apart from its cached length.
    for (const offset of [0, 9, 99]) {
      const first = renderResultsText({ ...page(items), offset }, ru.t, ru.fmt);
      const second = renderResultsText({ ...page(items), offset }, ru.t, ru.fmt);
      expect(second).toBe(first);
      expect(visibleLength(first)).toBeLessThanOrEqual(4096);
      // Nearly full: the cards that fit were shown, not fewer.
      expect(visibleLength(first)).toBeGreaterThan(3000);
      expect(first).toContain(`<b>${offset + 1}.</b> `);
    }
  });
});
