import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import type { Specification } from '../../../portal/schemas.ts';
import { clip, say } from '../common/card-parts.ts';
import type { CardOptions } from '../common/card-parts.ts';

/** A code, with the operator's name beside it when STATUS_NAMES_FILE gives one. */
const named = (code: string, name: string | undefined, t: Translate, options: CardOptions): string =>
  name === undefined || code === '' ? code : t('status.named', { code, name: clip(name, options) });

/**
 * «Статус: 20, тип ZSD_DOG»: the code and the type as the portal sends them (their meanings are not
 * published), named only as the operator names them; the one line every view of a specification
 * (card, details, rich record) draws its status with.
 */
export const specStatusLabel = (spec: Specification, t: Translate, fmt: Formatter, options: CardOptions): string | null => {
  const code = named(clip(spec.STATUS, options), fmt.statusName('specification', spec.STATUS, spec.STATUS_TYPE), t, options);
  const type = named(clip(spec.STATUS_TYPE, options), fmt.statusName('type', spec.STATUS_TYPE), t, options);
  if (code === '') return type === '' ? null : say(t, 'spec.statusType', { type });
  return type === '' ? say(t, 'spec.statusCode', { code }) : say(t, 'spec.status', { code, type });
};
