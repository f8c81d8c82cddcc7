import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import type { Locale } from '../../../../src/i18n.ts';
import type { DetailsView } from '../../../../src/bot/views/common/details-view.ts';
import { DETAILS_TEXT_BUDGET, MAX_DETAILS_PARTS, MAX_LINKS_PER_PART } from '../../../../src/bot/views/common/details-paging.ts';
import { TELEGRAM_TEXT_LIMIT, visibleLength } from '../../../../src/bot/views/common/html.ts';
import { renderOrderDetails } from '../../../../src/bot/views/order/details.ts';
import { renderSpecDetails } from '../../../../src/bot/views/specification/details.ts';
import type { Order, Specification } from '../../../../src/portal/schemas.ts';
import { makeOrder, orderPosition } from '../../../fixtures/portal-records.ts';
import { bigSpecification, hugeOrder, hugeSpecification, worstOrder, worstSpecification } from '../../../fixtures/worst-case.ts';
import { formatMessageText } from '../../../support/bot-api/text.ts';

// Long records page inside the view: every part is one message Telegram accepts, with room to
// spare; together the parts show every entry once, in order.

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const fetchedAt = new Date('2026-11-23T11:05:00Z');

/** What Telegram would store: throws on malformed HTML or a text over 4096 characters. */
const sendable = (html: string) => formatMessageText({ text: html, parseMode: 'HTML', entities: undefined }, { strictHtmlAmpersand: true });

const allParts = (render: (part: number) => DetailsView): DetailsView[] =>
  Array.from({ length: render(0).parts }, (_, part) => render(part));

const orderParts = (order: Order, locale: Locale) => {
  const { t, fmt } = kit(locale);
  return allParts((part) => renderOrderDetails(order, part, t, fmt, fetchedAt));
};

const specParts = (spec: Specification, locale: Locale) => {
  const { t, fmt } = kit(locale);
  return allParts((part) => renderSpecDetails(spec, part, t, fmt, fetchedAt));
};

/** The lines of a section in a part's text: from its bold header to the next blank line. */
const sectionLines = (text: string, label: string): string[] => {
  const block = text.split('\n\n').find((chunk) => chunk.startsWith(`<b>${label}</b>`));
  return block === undefined ? [] : block.split('\n').slice(1);
};

const positionNumbers = (view: DetailsView) => [...view.text.matchAll(/^• <b>(\d{6})<\/b> · /gm)].map((match) => match[1]);

const expectSendable = (views: DetailsView[]) => {
  for (const view of views) {
    expect(visibleLength(view.text)).toBeLessThanOrEqual(DETAILS_TEXT_BUDGET);
    expect(sendable(view.text).text.length).toBe(visibleLength(view.text));
  }
};

describe.each([
  ['ru', 'Заказ №', 'часть', 'Позиции'],
  ['en', 'Order No.', 'part', 'Positions'],
] as const)('%s: an order with 60 positions and 300-character names', (locale, title, partWord, positionsLabel) => {
  const order = worstOrder(1);
  const views = orderParts(order, locale);

  test('every part is one message well within 4096 characters', () => {
    expect(views.length).toBeGreaterThan(1);
    expect(views.length).toBeLessThanOrEqual(10);
    expectSendable(views);
  });

  test('every position once, in order; the positions list matches what each part shows', () => {
    const expected = order.POSITION.map((position) => position.ORDER_POSITION_SAP_ID);
    expect(views.flatMap(positionNumbers)).toEqual(expected);
    for (const view of views) {
      const shown = order.POSITION.filter((position) => positionNumbers(view).includes(position.ORDER_POSITION_SAP_ID));
      expect(view.positions).toEqual(shown.map((position) => ({ materialSapId: position.MATERIAL_SAP_ID, materialName: position.MATERIAL_NAME })));
      expect(view.positions.length).toBeLessThanOrEqual(MAX_LINKS_PER_PART);
      expect(view.relatedOrders).toEqual([]);
    }
  });

  test('the title with "part k of n" and the key fields on every part, then the positions continuing', () => {
    views.forEach((view, index) => {
      const lines = view.text.split('\n');
      expect(lines[0]).toMatch(new RegExp(`^<b>${title} 0007300101</b> .+ · ${partWord} ${index + 1} \\S+ ${views.length}$`));
      expect(view.text).toContain(locale === 'ru' ? '\n<i>обновлено <tg-time unix="1795431900" format="t">14:05</tg-time></i>\n\n' : '\n<i>updated <tg-time unix="1795431900" format="t">14:05</tg-time></i>\n\n');
      const from = order.POSITION.findIndex((position) => position.ORDER_POSITION_SAP_ID === positionNumbers(view)[0]) + 1;
      const to = from + view.positions.length - 1;
      expect(view.text).toMatch(new RegExp(`\\n\\n<b>${positionsLabel}</b> \\(${from}–${to} \\S+ 60\\):\\n`));
      expect(sectionLines(view.text, positionsLabel).length).toBe(view.positions.length * 2);
    });
  });

  test('deterministic, and the part is clamped', () => {
    const { t, fmt } = kit(locale);
    const last = views.length - 1;
    expect(renderOrderDetails(order, 1, t, fmt, fetchedAt)).toEqual(views[1]);
    expect(renderOrderDetails(order, -3, t, fmt, fetchedAt)).toEqual(views[0]);
    expect(renderOrderDetails(order, Number.NaN, t, fmt, fetchedAt)).toEqual(views[0]);
    expect(renderOrderDetails(order, 1.7, t, fmt, fetchedAt)).toEqual(views[1]);
    expect(renderOrderDetails(order, 999, t, fmt, fetchedAt)).toEqual(views[last]);
  });
});

test('at most ten positions a part however short they are, for few cross-link buttons', () => {
  const order = makeOrder({ POSITION: Array.from({ length: 25 }, (_, index) => orderPosition(index + 1)) });
  const views = orderParts(order, 'ru');
  expect(views.map((view) => view.positions.length)).toEqual([10, 10, 5]);
  expect(views[2]?.text.split('\n')[0]).toBe('<b>Заказ № 0007300100</b> от 15.03.2026 · часть 3 из 3');
  expect(views[2]?.text).toContain('\n\n<b>Позиции</b> (21–25 из 25):\n• <b>000210</b> · Труба 21\n');
  expect(orderParts(order, 'en')[1]?.text).toMatch(/^<b>Order No\. 0007300100<\/b> dated 15 Mar 2026 · part 2 of 3\n[^]*\n\n<b>Positions<\/b> \(11–20 of 25\):\n/);
});

describe.each(['ru', 'en'] as const)('%s: a specification with 60 positions, 50 documents and 30 production requests', (locale) => {
  const spec = bigSpecification();
  const views = specParts(spec, locale);
  const labels =
    locale === 'ru'
      ? { positions: 'Позиции и плановые даты производства', documents: 'Документы', requests: 'Заявки на производство' }
      : { positions: 'Positions and planned production dates', documents: 'Documents', requests: 'Production requests' };

  test('every part is one message well within 4096 characters', () => {
    expect(views.length).toBeGreaterThan(1);
    expectSendable(views);
  });

  test('positions, documents and requests each once, in order, across the parts', () => {
    expect(views.flatMap(positionNumbers)).toEqual(spec.POSITION.map((position) => position.SPECIFICATION_POSITION_SAP_ID));
    const documents = views.flatMap((view) => sectionLines(view.text, labels.documents)).map((line) => /УПД-\d{5}/.exec(line)?.[0]);
    expect(documents).toEqual(Array.from({ length: 50 }, (_, index) => `УПД-${String(index + 1).padStart(5, '0')}`));
    const requests = views.flatMap((view) => sectionLines(view.text, labels.requests)).map((line) => line.split(' ')[1]);
    expect(requests).toEqual(spec.ORDER.map((order) => order.SAP_ID));
  });

  test('positions and relatedOrders are what each part shows; few links a part', () => {
    for (const view of views) {
      expect(view.positions.map((position) => position.materialSapId)).toEqual(
        spec.POSITION.filter((position) => positionNumbers(view).includes(position.SPECIFICATION_POSITION_SAP_ID)).map(
          (position) => position.MATERIAL_SAP_ID,
        ),
      );
      expect(view.relatedOrders).toEqual(sectionLines(view.text, labels.requests).map((line) => line.split(' ')[1]));
      expect(view.positions.length + view.relatedOrders.length).toBeLessThanOrEqual(MAX_LINKS_PER_PART);
      expect(view.text.split('\n').slice(1, 7).join('\n')).toBe(views[0]?.text.split('\n').slice(1, 7).join('\n'));
    }
  });
});

describe('records no real portal sends still give sendable parts', () => {
  test.each(['ru', 'en'] as const)('%s: every field 300 characters and every list 50 long', (locale) => {
    for (const views of [orderParts(hugeOrder(1), locale), specParts(hugeSpecification(1), locale)]) {
      expect(views.length).toBeLessThanOrEqual(MAX_DETAILS_PARTS);
      expectSendable(views);
      for (const view of views) expect(visibleLength(view.text)).toBeLessThan(TELEGRAM_TEXT_LIMIT);
    }
  });

  test('1200 positions: at most 99 parts, and the last says how many were left out', () => {
    const spec = worstSpecification(1, 1200);
    const views = specParts(spec, 'ru');
    expect(views.length).toBe(MAX_DETAILS_PARTS);
    expectSendable(views);
    const shown = views.flatMap((view) => view.positions).length;
    const lastText = views.at(-1)?.text ?? '';
    expect(lastText).toMatch(new RegExp(`\\n\\nЕщё ${1200 - shown + 5 + 4 + 3} строк[аи]? не поместил[аи]сь\\.$`));
    expect(views.flatMap(positionNumbers)).toEqual(spec.POSITION.slice(0, shown).map((position) => position.SPECIFICATION_POSITION_SAP_ID));
  });
});
