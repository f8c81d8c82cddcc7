import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { cachedCard, cachedPageCards, cachedRich } from '../../../../src/bot/views/common/render-cache.ts';
import { renderOrderRich } from '../../../../src/bot/views/order/rich.ts';
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

describe('cachedRich', () => {
  test('renders a part once per record, language and part; a forged part number is one of the parts there can be', () => {
    const record = {};
    let calls = 0;
    const render = () => ((calls += 1), { html: `<p>${calls}</p>`, part: 0, parts: 1 });
    const first = cachedRich(record, ru.t, ru.fmt, 0, render);
    expect(cachedRich(record, ru.t, ru.fmt, 0, render)).toBe(first);
    cachedRich(record, en.t, en.fmt, 0, render);
    cachedRich(record, ru.t, ru.fmt, 1, render);
    expect(calls).toBe(3);
    cachedRich(record, ru.t, ru.fmt, Number.NaN, render);
    cachedRich(record, ru.t, ru.fmt, -4, render);
    expect(calls).toBe(3);
    cachedRich(record, ru.t, ru.fmt, 10_000, render);
    cachedRich(record, ru.t, ru.fmt, 99, render);
    expect(calls).toBe(4);
  });

  test('an order opened again reads the same but for its «обновлено» time; the same order fetched anew shows its new data', () => {
    const order = makeOrder();
    const first = renderOrderRich(order, 0, ru.t, ru.fmt, new Date('2026-11-23T11:05:00Z'));
    const again = renderOrderRich(order, 0, ru.t, ru.fmt, new Date('2026-11-23T11:07:00Z'));
    expect(first.html).toContain('14:05');
    expect(again.html).toContain('14:07');
    expect(again.html.replace(/<footer>.*<\/footer>$/, '')).toBe(first.html.replace(/<footer>.*<\/footer>$/, ''));
    const changed = renderOrderRich({ ...order, STATUS_TEXT: 'Отгружен полностью' }, 0, ru.t, ru.fmt, new Date('2026-11-23T11:07:00Z'));
    expect(changed.html).toContain('Отгружен полностью');
    expect(first.html).not.toContain('Отгружен полностью');
  });
});

describe('cachedPageCards', () => {
  test('fits a page once per language, offset and room its header leaves', () => {
    const items: object[] = [];
    const page = counting('<b>1.</b> card');
    expect(cachedPageCards(items, ru.t, ru.fmt, 0, 4000, page.render)).toBe('<b>1.</b> card');
    cachedPageCards(items, ru.t, ru.fmt, 0, 4000, page.render);
    expect(page.calls()).toBe(1);
    cachedPageCards(items, ru.t, ru.fmt, 0, 3990, page.render);
    cachedPageCards(items, ru.t, ru.fmt, 5, 4000, page.render);
    cachedPageCards(items, en.t, en.fmt, 0, 4000, page.render);
    cachedPageCards([], ru.t, ru.fmt, 0, 4000, page.render);
    expect(page.calls()).toBe(5);
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
    // A longer header (the date beside the time, a larger total) leaves less room: fitted anew.
    const short = renderResultsText({ ...page(items), fetchedAt: new Date('2026-11-23T11:05:00Z') }, ru.t, ru.fmt);
    const longer = renderResultsText({ ...page(items), total: 123_456, fetchedAt: new Date('2026-11-23T11:05:00Z'), now: new Date('2026-11-25T11:05:00Z') }, ru.t, ru.fmt);
    expect(visibleLength(short)).toBeLessThanOrEqual(4096);
    expect(visibleLength(longer)).toBeLessThanOrEqual(4096);
    expect(visibleLength(longer)).toBeGreaterThan(3000);
  });
});
