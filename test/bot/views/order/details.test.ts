import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { renderOrderDetails } from '../../../../src/bot/views/order/details.ts';
import { makeOrder, orderPosition } from '../../../fixtures/portal-records.ts';
import { parseHtml } from '../../../support/bot-api/html.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };
const fetchedAt = new Date('2026-11-23T11:05:00Z');

describe('order in full', () => {
  test('Russian: every field, every position with number, code, name, quantity, price and currency', () => {
    const view = renderOrderDetails(makeOrder(), 0, ru.t, ru.fmt, fetchedAt);
    expect(view.text).toBe(
      [
        '<b>Заказ № 0007300100</b> от 15.03.2026',
        'Номер CRM: CRM-2026-004512',
        'Статус: Производство (production)',
        'Сумма: 1\u00a0234\u00a0567,89 RUB',
        'Предоплата: 500\u00a0000,00',
        'Вес: 12,345\u00a0т',
        'Метры: 120,5\u00a0м',
        'Штуки: 10\u00a0шт',
        '<i>обновлено <tg-time unix="1795431900" format="t">14:05</tg-time></i>',
        '',
        '<b>Позиции</b> (2):',
        '• <b>000010</b> · Труба 530х8 К52 ГОСТ 20295-85',
        'код материала 000000000010012345 · 12,345\u00a0т · цена 1\u00a0000,00 RUB',
        '• <b>000020</b> · Труба э/с 133х4,5',
        'код материала 000000000010012346 · 120,5\u00a0м · цена 1\u00a0000,00 RUB',
      ].join('\n'),
    );
    expect(view).toMatchObject({
      part: 0,
      parts: 1,
      positions: [
        { materialSapId: '000000000010012345', materialName: 'Труба 530х8 К52 ГОСТ 20295-85' },
        { materialSapId: '000000000010012346', materialName: 'Труба э/с 133х4,5' },
      ],
      relatedOrders: [],
    });
  });

  test('English', () => {
    expect(renderOrderDetails(makeOrder(), 0, en.t, en.fmt, fetchedAt).text).toBe(
      [
        '<b>Order No. 0007300100</b> dated 15 Mar 2026',
        'CRM no.: CRM-2026-004512',
        'Status: Производство (production)',
        'Total: 1,234,567.89 RUB',
        'Prepayment: 500,000.00',
        'Weight: 12.345\u00a0t',
        'Metres: 120.5\u00a0m',
        'Pieces: 10\u00a0pcs',
        '<i>updated <tg-time unix="1795431900" format="t">14:05</tg-time></i>',
        '',
        '<b>Positions</b> (2):',
        '• <b>000010</b> · Труба 530х8 К52 ГОСТ 20295-85',
        'material code 000000000010012345 · 12.345\u00a0t · price 1,000.00 RUB',
        '• <b>000020</b> · Труба э/с 133х4,5',
        'material code 000000000010012346 · 120.5\u00a0m · price 1,000.00 RUB',
      ].join('\n'),
    );
  });

  test('fetched on another day than now: the date too; without fetchedAt: no line', () => {
    const now = new Date('2026-11-24T08:00:00Z');
    expect(renderOrderDetails(makeOrder(), 0, ru.t, ru.fmt, fetchedAt, now).text).toContain('\n<i>обновлено <tg-time unix="1795431900" format="dt">23.11.2026 14:05</tg-time></i>\n');
    expect(renderOrderDetails(makeOrder(), 0, en.t, en.fmt, fetchedAt, now).text).toContain('\n<i>updated <tg-time unix="1795431900" format="dt">23 Nov 2026, 14:05</tg-time></i>\n');
    expect(renderOrderDetails(makeOrder(), 0, en.t, en.fmt).text).not.toContain('updated');
  });

  test('empty fields leave their lines out; a position without number, quantity or price keeps its name', () => {
    const order = makeOrder({
      CRM_ID: null,
      DATE_ORDER: null,
      STATUS: 'production_evaluation',
      STATUS_TEXT: '',
      PREPAYMENT: null,
      POSITION_SUM: null,
      POSITION_METERS: null,
      POSITION_PIECES: null,
      POSITION_WEIGHT_TONN: 0,
      POSITION: [
        orderPosition(1, { ORDER_POSITION_SAP_ID: '', QUANTITY: null, PRICE: null, MATERIAL_SAP_ID: '' }),
        orderPosition(2, { MATERIAL_NAME: '', PRICE: 25.5, CURRENCY: '', QUANTITY: 3, MEASURE: 'KMT' }),
      ],
    });
    expect(renderOrderDetails(order, 0, ru.t, ru.fmt).text).toBe(
      [
        '<b>Заказ № 0007300100</b>',
        'Статус: production_evaluation',
        'Вес: 0\u00a0т',
        '',
        '<b>Позиции</b> (2):',
        '• Труба 1',
        '• <b>000020</b> · —',
        'код материала 000000000010012346 · 3\u00a0KMT · цена 25,50',
      ].join('\n'),
    );
    expect(renderOrderDetails(makeOrder({ POSITION: null, CRM_ID: '' }), 0, en.t, en.fmt).text).toBe(
      [
        '<b>Order No. 0007300100</b> dated 15 Mar 2026',
        'Status: Производство (production)',
        'Total: 1,234,567.89',
        'Prepayment: 500,000.00',
        'Weight: 12.345\u00a0t',
        'Metres: 120.5\u00a0m',
        'Pieces: 10\u00a0pcs',
      ].join('\n'),
    );
  });

  test('the same status text and code is said once', () => {
    expect(renderOrderDetails(makeOrder({ STATUS_TEXT: 'Production' }), 0, en.t, en.fmt).text).toContain('\nStatus: Production\n');
  });

  test('portal text is escaped and reaches the user exactly', () => {
    const name = 'Труба 1020х12 "К60" <ТУ 1381-012> & Ко';
    const order = makeOrder({
      SAP_ID: '<b>1</b>',
      POSITION: [orderPosition(1, { ORDER_POSITION_SAP_ID: '<10>', MATERIAL_NAME: name, CURRENCY: '<RUB>', MEASURE: '&' })],
    });
    const view = renderOrderDetails(order, 0, ru.t, ru.fmt);
    const shown = parseHtml(view.text).text;
    expect(shown).toMatch(/^Заказ № <b>1<\/b> от 15\.03\.2026\n/);
    expect(shown).toContain(`\n• <10> · ${name}\nкод материала 000000000010012345 · 1\u00a0& · цена 1\u00a0000,00 <RUB>`);
    expect(view.positions).toEqual([{ materialSapId: '000000000010012345', materialName: name }]);
  });
});
