import { EMPTY_VALUE } from '../../../format.ts';
import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Order } from '../../../portal/schemas.ts';
import { clip, say } from '../common/card-parts.ts';
import { escapeHtml } from '../common/html.ts';
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH, SUMMARY_OPTIONS, fittingCard, plainLine, positionCount, resultId, type InlineItem } from '../common/inline-item.ts';
import { orderSumLine, renderOrderCard } from './card.ts';

/**
 * An order as an inline result: «Заказ № 0007300100 · Производство» over «15.03.2026 · Сумма:
 * 1 234 567,89 RUB · 2 позиции». The id is stable: the same order gives the same id.
 */
export const renderOrderInline = (order: Order, t: Translate, fmt: Formatter): InlineItem => {
  const options = SUMMARY_OPTIONS;
  const status = clip(order.STATUS_TEXT.trim() || order.STATUS, options);
  const title = say(t, 'order.title', { sapId: clip(order.SAP_ID, options) || EMPTY_VALUE });
  const weight =
    order.POSITION_WEIGHT_TONN === null ? null : say(t, 'full.weight', { value: fmt.quantity(order.POSITION_WEIGHT_TONN, 'TNE') });
  return {
    id: resultId('o', order.SAP_ID.trim() || JSON.stringify(order)),
    title: plainLine([title, escapeHtml(status)], MAX_TITLE_LENGTH),
    description: plainLine(
      [
        order.DATE_ORDER === null ? null : escapeHtml(clip(fmt.date(order.DATE_ORDER), options)),
        orderSumLine(order, t, fmt, options) ?? weight,
        positionCount(order.POSITION.length, t),
      ],
      MAX_DESCRIPTION_LENGTH,
    ),
    text: fittingCard((cardOptions) => renderOrderCard(order, t, fmt, cardOptions)),
  };
};
