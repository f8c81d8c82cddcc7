import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import { renderTime } from './time.ts';

/**
 * «обновлено 14:05»: when the data was fetched, a time in each reader's zone (renderTime), over
 * the formatter's time zone with the date when that was not on the day of `now` (by default the
 * fetch itself). Null without a time.
 */
export const renderFetchedAt = (t: Translate, fmt: Formatter, fetchedAt?: Date, now?: Date): string | null =>
  fetchedAt === undefined ? null : t('fetched.at', { when: renderTime(fetchedAt, fmt, now ?? fetchedAt) });
