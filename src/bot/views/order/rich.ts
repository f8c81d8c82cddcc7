import { EMPTY_VALUE, unitKindOf } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Order, OrderPosition } from '../../../portal/schemas.ts';
import { clip, say, upTo } from '../common/card-parts.ts';
import { cachedRichView } from '../common/render-cache.ts';
import { withoutLeadingZeros, type RichCell, type RichContent, type RichRecord } from '../common/rich-record.ts';
import { orderCurrency, orderSumLine, orderTitleLine, volumeLine } from './card.ts';
import { orderStatusLabel } from './status.ts';

const HEAD = upTo(300);

/**
 * Quantity × price, where the units make that meaningful: a quantity in a unit the bot knows (т,
 * м, шт, кг), the price being per that unit; for an unknown unit code it cannot tell. Null then.
 */
export const lineTotal = (position: OrderPosition): number | null =>
  position.QUANTITY === null || position.PRICE === null || unitKindOf(position.MEASURE) === undefined ? null : position.QUANTITY * position.PRICE;

const positionRow = (position: OrderPosition, fmt: Formatter): RichCell[] => {
  const total = lineTotal(position);
  return [
    { text: withoutLeadingZeros(position.ORDER_POSITION_SAP_ID) },
    { text: withoutLeadingZeros(position.MATERIAL_SAP_ID) },
    { text: position.MATERIAL_NAME.trim() || EMPTY_VALUE },
    { text: position.QUANTITY === null ? EMPTY_VALUE : fmt.quantity(position.QUANTITY, position.MEASURE), right: true },
    { text: fmt.money(position.PRICE), right: true },
    { text: total === null ? EMPTY_VALUE : fmt.money(total), right: true },
    { text: position.CURRENCY.trim() },
  ];
};

/** «Предоплата: 500 000,00 RUB», with the order's currency when its positions share one. */
const prepaymentLine = (order: Order, t: Translate, fmt: Formatter): string | null => {
  if (order.PREPAYMENT === null) return null;
  const currency = orderCurrency(order.POSITION);
  const value = fmt.money(order.PREPAYMENT);
  return currency === null ? say(t, 'card.prepayment', { value }) : say(t, 'rich.prepaymentWithCurrency', { value, currency: clip(currency, HEAD) });
};

/** An order's content for the rich view: the header, then every position as a row of one table. */
export const orderRichContent = (order: Order, t: Translate, fmt: Formatter): RichContent => ({
  title: orderTitleLine(order, t, fmt, HEAD),
  head: [
    order.CRM_ID.trim() === '' ? null : say(t, 'order.crm', { value: clip(order.CRM_ID, HEAD) }),
    orderStatusLabel(order, t, fmt, HEAD),
    orderSumLine(order, t, fmt, HEAD),
    prepaymentLine(order, t, fmt),
    volumeLine(order, t, fmt),
  ],
  sections:
    order.POSITION.length === 0
      ? []
      : [
          {
            kind: 'table',
            header: [
              { text: t('rich.column.number') },
              { text: t('rich.column.code') },
              { text: t('rich.column.material') },
              { text: t('rich.column.quantity'), right: true },
              { text: t('rich.column.price'), right: true },
              { text: t('rich.column.total'), right: true },
              { text: t('rich.column.currency') },
            ],
            rows: order.POSITION.map((position) => positionRow(position, fmt)),
          },
        ],
});

/** An order in full as a rich message: its header and one table of its positions (line totals included). */
export const renderOrderRich = (order: Order, part: number, t: Translate, fmt: Formatter, fetchedAt?: Date, now?: Date): RichRecord =>
  cachedRichView(order, () => orderRichContent(order, t, fmt), part, t, fmt, fetchedAt, now);
