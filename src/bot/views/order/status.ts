import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Order } from '../../../portal/schemas.ts';
import { clip, say } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';
import { namedStatus } from './card.ts';

/**
 * «Статус: Производство (production)»: the text and the code, the list of statuses not being
 * known, so both are worth showing; the one line every full view of an order draws its status with.
 */
export const orderStatusLabel = (order: Order, t: Translate, fmt: Formatter, options: CardOptions): string | null => {
  const text = clip(order.STATUS_TEXT, options);
  const code = clip(order.STATUS, options);
  if (text !== '' && code !== '' && text.toLowerCase() !== code.toLowerCase()) return say(t, 'full.statusWithCode', { text, code });
  const value = text || clip(namedStatus(order, t, fmt), options);
  return value === '' ? null : say(t, 'order.status', { value });
};
