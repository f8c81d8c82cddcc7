import type { Translate } from '../../../i18n.ts';
import type { Order } from '../../../portal/schemas.ts';
import { clip, say } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';

/**
 * «Статус: Производство (production)»: the text and the code, the list of statuses not being
 * known, so both are worth showing; the one line every full view of an order draws its status with.
 */
export const orderStatusLabel = (order: Order, t: Translate, options: CardOptions): string | null => {
  const text = clip(order.STATUS_TEXT, options);
  const code = clip(order.STATUS, options);
  if (text !== '' && code !== '' && text.toLowerCase() !== code.toLowerCase()) return say(t, 'full.statusWithCode', { text, code });
  const value = text || code;
  return value === '' ? null : say(t, 'order.status', { value });
};
