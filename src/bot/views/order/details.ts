import { EMPTY_VALUE } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Order, OrderPosition } from '../../../portal/schemas.ts';
import { clip, joinLines, say, upTo } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';
import { detailsRenderer } from '../common/details-view.ts';
import type { DetailsItem, DetailsSource } from '../common/details-view.ts';
import { escapeHtml } from '../common/html.ts';
import { orderSumLine, orderTitleLine } from './card.ts';
import { orderStatusLabel } from './status.ts';

const headLines = (order: Order, t: Translate, fmt: Formatter, options: CardOptions): Array<string | null> => [
  order.CRM_ID.trim() === '' ? null : say(t, 'order.crm', { value: clip(order.CRM_ID, options) }),
  orderStatusLabel(order, t, fmt, options),
  orderSumLine(order, t, fmt, options),
  order.PREPAYMENT === null ? null : say(t, 'card.prepayment', { value: fmt.money(order.PREPAYMENT) }),
  order.POSITION_WEIGHT_TONN === null ? null : say(t, 'full.weight', { value: fmt.quantity(order.POSITION_WEIGHT_TONN, 'TNE') }),
  order.POSITION_METERS === null ? null : say(t, 'full.metres', { value: fmt.quantity(order.POSITION_METERS, 'MTR') }),
  order.POSITION_PIECES === null
    ? null
    : say(t, 'full.pieces', { value: `${fmt.pieces(order.POSITION_PIECES)}\u00a0${fmt.unit('PCE')}` }),
];

/** «• <b>000010</b> · name», then the material code, the quantity and the price. */
const positionItem = (position: OrderPosition, t: Translate, fmt: Formatter, options: CardOptions): DetailsItem => {
  const number = clip(position.ORDER_POSITION_SAP_ID, options);
  const name = clip(position.MATERIAL_NAME, options) || EMPTY_VALUE;
  const code = clip(position.MATERIAL_SAP_ID, options);
  const currency = clip(position.CURRENCY, options);
  const price = position.PRICE === null ? null : [fmt.money(position.PRICE), currency].filter(Boolean).join(' ');
  const facts = [
    code === '' ? null : say(t, 'full.materialCode', { code }),
    position.QUANTITY === null ? null : escapeHtml(clip(fmt.quantity(position.QUANTITY, position.MEASURE), options)),
    price === null ? null : say(t, 'full.price', { value: price }),
  ].filter((fact) => fact !== null);
  return {
    html: joinLines([
      number === '' ? say(t, 'full.item', { value: name }) : say(t, 'full.numbered', { number, name }),
      facts.join(' · '),
    ]),
    position: { materialSapId: position.MATERIAL_SAP_ID.trim(), materialName: position.MATERIAL_NAME.trim() },
  };
};

/** An order's content in full, for the details view. */
export const orderDetailsSource = (order: Order, t: Translate, fmt: Formatter): DetailsSource => ({
  head: (max) => ({ title: orderTitleLine(order, t, fmt, upTo(max)), head: headLines(order, t, fmt, upTo(max)) }),
  sections: (max) => {
    const items = order.POSITION.map((position) => positionItem(position, t, fmt, upTo(max)));
    return items.length === 0 ? [] : [{ label: t('full.positions'), items }];
  },
});

/**
 * An order in full: every field and every position (number, material code and name, quantity,
 * price and currency), in parts when the positions do not fit one message.
 */
export const renderOrderDetails = detailsRenderer(orderDetailsSource);
