import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import { renderTime } from './time.ts';

const lastOf = new WeakMap<Formatter, { t: Translate; at: number; on: number; text: string }>();

/**
 * «обновлено 14:05»: when the data was fetched, a time in each reader's zone (renderTime), over
 * the formatter's time zone with the date when that was not on the day of `now` (by default the
 * fetch itself). Null without a time.
 */
export const renderFetchedAt = (t: Translate, fmt: Formatter, fetchedAt?: Date, now?: Date): string | null => {
  if (fetchedAt === undefined) return null;
  // Every answer of the same second, language and zone says the same: written once (the entity counts whole seconds).
  const at = Math.floor(fetchedAt.getTime() / 1000);
  const on = now === undefined ? at : Math.floor(now.getTime() / 1000);
  const last = lastOf.get(fmt);
  if (last !== undefined && last.t === t && last.at === at && last.on === on) return last.text;
  const text = t('fetched.at', { when: renderTime(fetchedAt, fmt, now ?? fetchedAt) });
  lastOf.set(fmt, { t, at, on, text });
  return text;
};
