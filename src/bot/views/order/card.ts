import { EMPTY_VALUE } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Order, OrderPosition } from '../../../portal/schemas.ts';
import { DEFAULT_CARD_OPTIONS, clip, joinLines, positionLines, say } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';

/** The currency of the total: only when every position names the same one. */
export const orderCurrency = (positions: readonly OrderPosition[]): string | null => {
  const codes = new Set(positions.map((position) => position.CURRENCY.trim()));
  const [only] = codes;
  return codes.size === 1 && only !== undefined && only !== '' ? only : null;
};

/** «Сумма: 1 234,00 RUB»; null without a total. */
export const orderSumLine = (order: Order, t: Translate, fmt: Formatter, options: CardOptions): string | null => {
  if (order.POSITION_SUM === null) return null;
  const currency = orderCurrency(order.POSITION);
  const amount = fmt.money(order.POSITION_SUM);
  return currency === null
    ? say(t, 'order.sum', { value: amount })
    : say(t, 'order.sumWithCurrency', { value: amount, currency: clip(currency, options) });
};

/** "12,345 т · 120,5 м · 10 шт" from the totals that are present. */
export const volumeLine = (order: Order, t: Translate, fmt: Formatter): string | null => {
  const parts = [
    order.POSITION_WEIGHT_TONN === null ? null : fmt.quantity(order.POSITION_WEIGHT_TONN, 'TNE'),
    order.POSITION_METERS === null ? null : fmt.quantity(order.POSITION_METERS, 'MTR'),
    order.POSITION_PIECES === null ? null : `${fmt.pieces(order.POSITION_PIECES)}\u00a0${fmt.unit('PCE')}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? null : say(t, 'order.volume', { value: parts.join(' · ') });
};

const positionLine = (position: OrderPosition, t: Translate, fmt: Formatter, options: CardOptions): string => {
  const name = clip(position.MATERIAL_NAME.trim() || position.MATERIAL_SAP_ID, options) || EMPTY_VALUE;
  return position.QUANTITY === null
    ? say(t, 'card.position', { name })
    : say(t, 'card.positionWithValue', { name, value: clip(fmt.quantity(position.QUANTITY, position.MEASURE), options) });
};

/** A code without a text from the portal, with the operator's name beside it when STATUS_NAMES_FILE gives one. */
export const namedStatus = (order: Order, t: Translate, fmt: Formatter): string => {
  const name = fmt.statusName('order', order.STATUS);
  return name === undefined || order.STATUS.trim() === '' ? order.STATUS : t('status.named', { code: order.STATUS.trim(), name });
};

/** «<b>Заказ № 0007300100</b> от 15.03.2026». */
export const orderTitleLine = (order: Order, t: Translate, fmt: Formatter, options: CardOptions): string => {
  const sapId = clip(order.SAP_ID, options) || EMPTY_VALUE;
  return order.DATE_ORDER === null
    ? say(t, 'order.title', { sapId })
    : say(t, 'order.titleDated', { sapId, date: clip(fmt.date(order.DATE_ORDER), options) });
};

export const renderOrderCard = (
  order: Order,
  t: Translate,
  fmt: Formatter,
  options: CardOptions = DEFAULT_CARD_OPTIONS,
): string => {
  const status = clip(order.STATUS_TEXT.trim() || namedStatus(order, t, fmt), options);
  const title = orderTitleLine(order, t, fmt, options);
  const crm = order.CRM_ID.trim() === '' ? null : say(t, 'order.crm', { value: clip(order.CRM_ID, options) });
  const prepayment = order.PREPAYMENT === null ? null : say(t, 'card.prepayment', { value: fmt.money(order.PREPAYMENT) });
  return joinLines([
    title,
    options.brief ? null : crm,
    status === '' ? null : say(t, 'order.status', { value: status }),
    orderSumLine(order, t, fmt, options),
    options.brief ? null : prepayment,
    options.brief ? null : volumeLine(order, t, fmt),
    ...positionLines(t, 'order.positions', order.POSITION, (position) => positionLine(position, t, fmt, options), options),
  ]);
};
