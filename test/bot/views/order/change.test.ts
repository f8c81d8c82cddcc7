import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator, type Locale } from '../../../../src/i18n.ts';
import type { RecordChange } from '../../../../src/watch/changes.ts';
import { diffSnapshots } from '../../../../src/watch/diff.ts';
import { snapshotOf } from '../../../../src/watch/snapshot.ts';
import { CHANGE_VIEWS } from '../../../../src/bot/views/change-views.ts';
import { renderOrderChange } from '../../../../src/bot/views/order/change.ts';
import type { RawOrder } from '../../../fixtures/portal-records.ts';
import { makeOrder, orderPosition, rawOrder } from '../../../fixtures/portal-records.ts';

const kit = (locale: Locale) => ({ t: createTranslator(locale), fmt: createFormatter(locale) });
const ru = kit('ru');
const en = kit('en');

/** The one order's change between two polls. */
const changeOf = (before: Partial<RawOrder>, after: Partial<RawOrder>): RecordChange => {
  const [change] = diffSnapshots(snapshotOf({ resource: 'order', items: [makeOrder(before)] }), snapshotOf({ resource: 'order', items: [makeOrder(after)] }));
  if (change === undefined) throw new Error('no change');
  return change;
};

const [first] = rawOrder().POSITION ?? [];
const everything = changeOf(
  {},
  {
    STATUS: 'shipped',
    STATUS_TEXT: 'Отгружен',
    POSITION_SUM: 1300,
    PREPAYMENT: null,
    POSITION_WEIGHT_TONN: 13.5,
    POSITION_METERS: 121.25,
    POSITION_PIECES: 12,
    POSITION: [{ ...first!, QUANTITY: 13, PRICE: 1100.5 }, orderPosition(3, { MATERIAL_NAME: 'Труба 530х8', QUANTITY: 2.5, MEASURE: 'TO' })],
  },
);

describe('an order\'s changes', () => {
  test('Russian: the header, then every change, values formatted per locale', () => {
    expect(renderOrderChange(everything, ru.t, ru.fmt)).toEqual([
      '🔔 <b>Заказ № 0007300100</b> от 15.03.2026',
      'Статус: Производство → Отгружен',
      'Сумма: 1\u00a0234\u00a0567,89 → 1\u00a0300,00',
      'Предоплата: 500\u00a0000,00 → —',
      'Вес: 12,345\u00a0т → 13,5\u00a0т',
      'Метры: 120,5\u00a0м → 121,25\u00a0м',
      'Штуки: 10\u00a0шт → 12\u00a0шт',
      'Количество, поз. 000010, Труба 530х8 К52 ГОСТ 20295-85: 12,345 → 13',
      'Цена, поз. 000010, Труба 530х8 К52 ГОСТ 20295-85: 1\u00a0000,00 → 1\u00a0100,50',
      'Новая позиция 000030: Труба 530х8 — 2,5\u00a0т',
      'Удалена поз. 000020, Труба э/с 133х4,5',
    ]);
  });

  test('English likewise', () => {
    expect(renderOrderChange(everything, en.t, en.fmt)).toEqual([
      '🔔 <b>Order No. 0007300100</b> dated 15 Mar 2026',
      'Status: Производство → Отгружен',
      'Total: 1,234,567.89 → 1,300.00',
      'Prepayment: 500,000.00 → —',
      'Weight: 12.345\u00a0t → 13.5\u00a0t',
      'Metres: 120.5\u00a0m → 121.25\u00a0m',
      'Pieces: 10\u00a0pcs → 12\u00a0pcs',
      'Quantity, pos. 000010, Труба 530х8 К52 ГОСТ 20295-85: 12.345 → 13',
      'Price, pos. 000010, Труба 530х8 К52 ГОСТ 20295-85: 1,000.00 → 1,100.50',
      'New position 000030: Труба 530х8 — 2.5\u00a0t',
      'Removed pos. 000020, Труба э/с 133х4,5',
    ]);
  });

  test('the status is one line: its text, or its code when only the code changed', () => {
    expect(renderOrderChange(changeOf({ STATUS_TEXT: '' }, { STATUS_TEXT: '', STATUS: 'shipped' }), en.t, en.fmt).slice(1)).toEqual(['Status: production → shipped']);
    expect(renderOrderChange(changeOf({}, { STATUS: 'production_2' }), ru.t, ru.fmt).slice(1)).toEqual(['Код статуса: production → production_2']);
    expect(renderOrderChange(changeOf({}, { STATUS: 'in_production', STATUS_TEXT: 'В производстве' }), ru.t, ru.fmt).slice(1)).toEqual([
      'Статус: Производство → В производстве',
    ]);
  });

  test('entering and leaving the query', () => {
    const entered = diffSnapshots({ resource: 'order', records: {} }, snapshotOf({ resource: 'order', items: [makeOrder({ DATE_ORDER: null })] }));
    expect(renderOrderChange(entered[0]!, ru.t, ru.fmt)).toEqual(['🔔 <b>Заказ № 0007300100</b>', 'Новая запись по запросу']);
    const left = diffSnapshots(snapshotOf({ resource: 'order', items: [makeOrder()] }), { resource: 'order', records: {} });
    expect(renderOrderChange(left[0]!, en.t, en.fmt)).toEqual(['🔔 <b>Order No. 0007300100</b> dated 15 Mar 2026', 'No longer matches the query']);
  });

  test('portal text is escaped', () => {
    const [one, two] = rawOrder().POSITION ?? [];
    const change = changeOf({}, { STATUS_TEXT: 'Отгружен <частично> & "быстро"', POSITION: [{ ...one!, MATERIAL_NAME: 'Труба <530>' }, two!, orderPosition(3, { MATERIAL_NAME: 'A&B' })] });
    expect(renderOrderChange(change, ru.t, ru.fmt).slice(1)).toEqual([
      'Статус: Производство → Отгружен &lt;частично&gt; &amp; &quot;быстро&quot;',
      'Материал, поз. 000010: Труба 530х8 К52 ГОСТ 20295-85 → Труба &lt;530&gt;',
      'Новая позиция 000030: A&amp;B — 1\u00a0шт',
    ]);
  });

  test('is the order entry of CHANGE_VIEWS', () => {
    expect(CHANGE_VIEWS.order(everything, ru.t, ru.fmt)).toEqual(renderOrderChange(everything, ru.t, ru.fmt));
  });
});
