import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { DEFAULT_CARD_OPTIONS } from '../../../../src/bot/views/common/card-parts.ts';
import { orderCurrency, renderOrderCard } from '../../../../src/bot/views/order/card.ts';
import { makeOrder, orderPosition } from '../../../fixtures/portal-records.ts';
import { parseHtml } from '../../../support/bot-api/html.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };
const renderRu = (order = makeOrder(), options = DEFAULT_CARD_OPTIONS) => renderOrderCard(order, ru.t, ru.fmt, options);
const renderEn = (order = makeOrder(), options = DEFAULT_CARD_OPTIONS) => renderOrderCard(order, en.t, en.fmt, options);
const positions = (count: number) => Array.from({ length: count }, (_, index) => orderPosition(index + 1));

describe('order card', () => {
  test('Russian', () => {
    expect(renderRu()).toBe(
      [
        '<b>Заказ № 0007300100</b> от 15.03.2026',
        'Номер CRM: CRM-2026-004512',
        'Статус: Производство',
        'Сумма: 1\u00a0234\u00a0567,89 RUB',
        'Предоплата: 500\u00a0000,00',
        'Количество: 12,345\u00a0т · 120,5\u00a0м · 10\u00a0шт',
        'Позиции (2):',
        '• Труба 530х8 К52 ГОСТ 20295-85 — 12,345\u00a0т',
        '• Труба э/с 133х4,5 — 120,5\u00a0м',
      ].join('\n'),
    );
  });

  test('English', () => {
    expect(renderEn()).toBe(
      [
        '<b>Order No. 0007300100</b> dated 15 Mar 2026',
        'CRM no.: CRM-2026-004512',
        'Status: Производство',
        'Total: 1,234,567.89 RUB',
        'Prepayment: 500,000.00',
        'Quantity: 12.345\u00a0t · 120.5\u00a0m · 10\u00a0pcs',
        'Positions (2):',
        '• Труба 530х8 К52 ГОСТ 20295-85 — 12.345\u00a0t',
        '• Труба э/с 133х4,5 — 120.5\u00a0m',
      ].join('\n'),
    );
  });

  test('portal text is escaped and reaches the user exactly', () => {
    const name = 'Труба 1020х12 "К60" <ТУ 1381-012> & Ко';
    const order = makeOrder({
      SAP_ID: '<b>1</b>',
      CRM_ID: 'CRM & <i>',
      STATUS_TEXT: '"Оценка" <производства>',
      POSITION: [orderPosition(1, { MATERIAL_NAME: name, QUANTITY: 2, MEASURE: '<KMT>' })],
    });
    const html = renderRu(order);
    expect(html).toContain('<b>Заказ № &lt;b&gt;1&lt;/b&gt;</b>');
    expect(html).toContain('• Труба 1020х12 &quot;К60&quot; &lt;ТУ 1381-012&gt; &amp; Ко — 2\u00a0&lt;KMT&gt;');
    const shown = parseHtml(html).text;
    expect(shown).toContain('Заказ № <b>1</b>');
    expect(shown).toContain('Номер CRM: CRM & <i>');
    expect(shown).toContain('Статус: "Оценка" <производства>');
    expect(shown).toContain(`• ${name} — 2\u00a0<KMT>`);
  });

  test('null and empty values leave their lines out', () => {
    const order = makeOrder({
      CRM_ID: null,
      DATE_ORDER: null,
      STATUS: '',
      STATUS_TEXT: null,
      PREPAYMENT: null,
      POSITION_SUM: null,
      POSITION_METERS: null,
      POSITION_PIECES: null,
      POSITION_WEIGHT_TONN: null,
      POSITION: null,
    });
    expect(renderRu(order)).toBe('<b>Заказ № 0007300100</b>');
    expect(renderEn(order)).toBe('<b>Order No. 0007300100</b>');
  });

  test('zero amounts are values, shown', () => {
    const order = makeOrder({ PREPAYMENT: 0, POSITION_METERS: null, POSITION_PIECES: null, POSITION_WEIGHT_TONN: 0 });
    expect(renderEn(order)).toContain('Prepayment: 0.00\nQuantity: 0\u00a0t\n');
  });

  test('the status code stands in for an empty status text', () => {
    const order = makeOrder({ STATUS: 'production_evaluation', STATUS_TEXT: '  ' });
    expect(renderRu(order)).toContain('\nСтатус: production_evaluation\n');
  });

  test('a time of day in the order date is shown', () => {
    expect(renderEn(makeOrder({ DATE_ORDER: '2026-03-15 14:30:00' }))).toMatch(/^<b>Order No\. 0007300100<\/b> dated 15 Mar 2026, 14:30\n/);
  });

  test('a position without a quantity or a name', () => {
    const order = makeOrder({
      POSITION: [orderPosition(1, { QUANTITY: null }), orderPosition(2, { MATERIAL_NAME: '', MATERIAL_SAP_ID: '000000000010012345', QUANTITY: 3, MEASURE: 'KMT' })],
    });
    expect(renderRu(order)).toMatch(/\nПозиции \(2\):\n• Труба 1\n• 000000000010012345 — 3\u00a0KMT$/);
  });
});

describe('currency of the total', () => {
  const sumLine = (currencies: string[]) =>
    renderEn(makeOrder({ POSITION: currencies.map((currency, index) => orderPosition(index + 1, { CURRENCY: currency })) }))
      .split('\n')
      .find((line) => line.startsWith('Total:'));

  test('shown when every position has the same currency', () => {
    expect(sumLine(['USD', 'USD', ' USD'])).toBe('Total: 1,234,567.89 USD');
  });

  test('left out when positions differ, one has none, or there are no positions', () => {
    expect(sumLine(['RUB', 'USD'])).toBe('Total: 1,234,567.89');
    expect(sumLine(['RUB', ''])).toBe('Total: 1,234,567.89');
    expect(sumLine([])).toBe('Total: 1,234,567.89');
    expect(sumLine([''])).toBe('Total: 1,234,567.89');
  });

  test('orderCurrency', () => {
    expect(orderCurrency(makeOrder().POSITION)).toBe('RUB');
    expect(orderCurrency([])).toBeNull();
  });
});

describe('positions beyond maxPositions', () => {
  const tail = (html: string) => html.split('\n').slice(-5);

  test('"… and N more" with Russian plurals', () => {
    expect(tail(renderRu(makeOrder({ POSITION: positions(4) })))).toEqual([
      'Позиции (4):',
      '• Труба 1 — 1\u00a0шт',
      '• Труба 2 — 1\u00a0шт',
      '• Труба 3 — 1\u00a0шт',
      '… и ещё 1 позиция',
    ]);
    expect(renderRu(makeOrder({ POSITION: positions(5) }))).toMatch(/\n• Труба 3 — 1\u00a0шт\n… и ещё 2 позиции$/);
    expect(renderRu(makeOrder({ POSITION: positions(8) }))).toMatch(/\n… и ещё 5 позиций$/);
    expect(renderRu(makeOrder({ POSITION: positions(24) }))).toMatch(/\n… и ещё 21 позиция$/);
  });

  test('"… and N more" in English', () => {
    expect(renderEn(makeOrder({ POSITION: positions(4) }))).toMatch(/\n• Труба 3 — 1\u00a0pcs\n… and 1 more position$/);
    expect(renderEn(makeOrder({ POSITION: positions(60) }))).toMatch(/\nPositions \(60\):\n(• .+\n){3}… and 57 more positions$/);
  });

  test('exactly maxPositions: no "more" line', () => {
    expect(renderEn(makeOrder({ POSITION: positions(3) }))).toMatch(/\n• Труба 3 — 1\u00a0pcs$/);
  });

  test('maxPositions 0 leaves only the count', () => {
    const options = { ...DEFAULT_CARD_OPTIONS, maxPositions: 0 };
    expect(renderRu(makeOrder({ POSITION: positions(60) }), options)).toMatch(/\nКоличество: .+\n60 позиций$/);
    expect(renderEn(makeOrder({ POSITION: positions(1) }), options)).toMatch(/\n1 position$/);
  });
});

test('a brief card keeps the number, date, status, total and the count of positions', () => {
  const options = { ...DEFAULT_CARD_OPTIONS, maxPositions: 0, brief: true };
  expect(renderRu(makeOrder(), options)).toBe(
    ['<b>Заказ № 0007300100</b> от 15.03.2026', 'Статус: Производство', 'Сумма: 1\u00a0234\u00a0567,89 RUB', '2 позиции'].join('\n'),
  );
});

test('long portal text is shortened by maxTextLength, before escaping', () => {
  const options = { ...DEFAULT_CARD_OPTIONS, maxTextLength: 10 };
  const html = renderRu(makeOrder({ CRM_ID: 'CRM & <2026> 004512', POSITION: [orderPosition(1, { MATERIAL_NAME: '<<<<<<<<<<<<<<<' })] }), options);
  expect(html).toContain('\nНомер CRM: CRM &amp; &lt;20…\n');
  expect(html).toContain('\n• &lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;&lt;… — 1\u00a0шт');
});
