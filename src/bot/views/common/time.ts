import type { Formatter } from '../../../format.ts';
import { escapeHtml } from './html.ts';

/**
 * A moment as a date_time entity (Bot API 9.5): each reader's client shows it in their own time
 * zone and format; the text inside, the moment in TIME_ZONE as the formatter reads it ("14:05", or
 * with the date when it is not on the day of `now`), is what older clients show. A server without
 * date_time entities gets the text alone (src/telegram/fit.ts).
 */
export const renderTime = (moment: Date, fmt: Formatter, now: Date = moment): string => {
  const format = fmt.day(moment) === fmt.day(now) ? 't' : 'dt';
  return `<tg-time unix="${Math.floor(moment.getTime() / 1000)}" format="${format}">${escapeHtml(fmt.dateTime(moment, now))}</tg-time>`;
};
