import { describe, expect, test } from 'vitest';
import { createFormatter } from '../../../../src/format.ts';
import { createTranslator } from '../../../../src/i18n.ts';
import { lineTotal, renderOrderRich } from '../../../../src/bot/views/order/rich.ts';
import { orderSchema } from '../../../../src/portal/schemas.ts';
import { makeOrder, orderPosition } from '../../../fixtures/portal-records.ts';
import { readRichMessage } from '../../../support/bot-api/rich-message.ts';

const ru = { t: createTranslator('ru'), fmt: createFormatter('ru') };
const en = { t: createTranslator('en'), fmt: createFormatter('en') };
const fetchedAt = new Date('2026-11-23T11:05:00Z');
const nb = '\u00a0';

describe('an order as a rich message', () => {
  test('Russian: heading, key fields (prepayment in the order’s currency), one table with line totals, the time fetched', () => {
    const view = renderOrderRich(makeOrder(), 0, ru.t, ru.fmt, fetchedAt);
    expect(view).toEqual({ part: 0, parts: 1, html: expect.any(String) });
    expect(view.html).toBe(
      [
        '<h3><b>Заказ № 0007300100</b> от 15.03.2026</h3>',
        `<p>Номер CRM: CRM-2026-004512<br/>Статус: Производство (production)<br/>Сумма: 1${nb}234${nb}567,89 RUB<br/>Предоплата: 500${nb}000,00 RUB<br/>Количество: 12,345${nb}т · 120,5${nb}м · 10${nb}шт</p>`,
        '<table bordered striped>',
        '<tr><th>№</th><th>Код</th><th>Материал</th><th align="right">Кол-во</th><th align="right">Цена</th><th align="right">Сумма</th><th>Вал.</th></tr>',
        `<tr><td>10</td><td>10012345</td><td>Труба 530х8 К52 ГОСТ 20295-85</td><td align="right">12,345${nb}т</td><td align="right">1${nb}000,00</td><td align="right">12${nb}345,00</td><td>RUB</td></tr>`,
        `<tr><td>20</td><td>10012346</td><td>Труба э/с 133х4,5</td><td align="right">120,5${nb}м</td><td align="right">1${nb}000,00</td><td align="right">120${nb}500,00</td><td>RUB</td></tr>`,
        '</table>',
        '<footer><i>обновлено <tg-time unix="1795431900" format="t">14:05</tg-time></i></footer>',
      ].join(''),
    );
  });

  test('English, and what Telegram makes of it: within its limits, text as a reader sees it', () => {
    const view = renderOrderRich(makeOrder(), 0, en.t, en.fmt, fetchedAt);
    expect(readRichMessage({ html: view.html }).text.replace(/\u00a0/g, ' ').split('\n')).toEqual([
      'Order No. 0007300100 dated 15 Mar 2026',
      'CRM no.: CRM-2026-004512',
      'Status: Производство (production)',
      'Total: 1,234,567.89 RUB',
      'Prepayment: 500,000.00 RUB',
      'Quantity: 12.345 t · 120.5 m · 10 pcs',
      'No. | Code | Material | Qty | Price | Total | Cur.',
      '10 | 10012345 | Труба 530х8 К52 ГОСТ 20295-85 | 12.345 t | 1,000.00 | 12,345.00 | RUB',
      '20 | 10012346 | Труба э/с 133х4,5 | 120.5 m | 1,000.00 | 120,500.00 | RUB',
      'updated 14:05',
    ]);
  });

  test('portal text escaped; a missing value «—»; prepayment without a currency when the positions have several', () => {
    const order = makeOrder({
      PREPAYMENT: 10,
      POSITION: [
        orderPosition(1, { MATERIAL_NAME: 'Труба <К60> & "ТУ"', QUANTITY: null, PRICE: null }),
        orderPosition(2, { MATERIAL_NAME: '', CURRENCY: 'USD', MEASURE: 'KMT', QUANTITY: 2, PRICE: 3 }),
      ],
    });
    const html = renderOrderRich(order, 0, en.t, en.fmt).html;
    expect(html).toContain('<td>Труба &lt;К60&gt; &amp; &quot;ТУ&quot;</td><td align="right">—</td><td align="right">—</td><td align="right">—</td><td>RUB</td>');
    expect(html).toContain('<td>—</td><td align="right">2\u00a0KMT</td><td align="right">3.00</td><td align="right">—</td><td>USD</td>');
    expect(html).toContain('<br/>Prepayment: 10.00<br/>');
    expect(html).not.toContain('<footer>');
  });

  test('a line total only where the unit is one the bot knows', () => {
    const position = (overrides: Parameters<typeof orderPosition>[1]) => orderSchema.shape.POSITION.parse([orderPosition(1, overrides)])[0]!;
    expect(lineTotal(position({ QUANTITY: 2.5, MEASURE: 'TO', PRICE: 100 }))).toBe(250);
    expect(lineTotal(position({ QUANTITY: 3, MEASURE: 'KG', PRICE: 2 }))).toBe(6);
    expect(lineTotal(position({ QUANTITY: 3, MEASURE: 'KMT', PRICE: 2 }))).toBeNull();
    expect(lineTotal(position({ QUANTITY: 3, MEASURE: '', PRICE: 2 }))).toBeNull();
    expect(lineTotal(position({ QUANTITY: null, MEASURE: 'TO', PRICE: 2 }))).toBeNull();
  });

  test('60 positions: one message, some 65 blocks, well within Telegram’s limits', () => {
    const order = makeOrder({ POSITION: Array.from({ length: 60 }, (_, k) => orderPosition(k + 1, { MATERIAL_NAME: `Труба 530х8 К52 ГОСТ 20295-85 № ${k}` })) });
    const view = renderOrderRich(order, 0, ru.t, ru.fmt, fetchedAt);
    expect(view.parts).toBe(1);
    const read = readRichMessage({ html: view.html });
    expect(read.metrics).toMatchObject({ blocks: 65, columns: 7 });
  });
});
