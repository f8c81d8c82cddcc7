import type { Translate } from '../../../i18n.ts';
import type { Specification } from '../../../portal/schemas.ts';
import { clip, say } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';

/**
 * «Статус: 20, тип ZSD_DOG»: the code and the type as the portal sends them (their meanings are not
 * published); the one line every view of a specification (card, details, rich record) draws its status with.
 */
export const specStatusLabel = (spec: Specification, t: Translate, options: CardOptions): string | null => {
  const code = clip(spec.STATUS, options);
  const type = clip(spec.STATUS_TYPE, options);
  if (code === '') return type === '' ? null : say(t, 'spec.statusType', { type });
  return type === '' ? say(t, 'spec.statusCode', { code }) : say(t, 'spec.status', { code, type });
};
