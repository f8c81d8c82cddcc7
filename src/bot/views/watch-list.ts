import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import { pagerRow } from '../keyboards/pager.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Watch } from '../../store/watch-store.ts';
import { packCallback } from '../callback-data/codec.ts';
import { pageNavigation } from '../paging.ts';
import type { View } from '../../telegram/view.ts';
import { describeTarget } from './watch-notices.ts';

/** Watches on one page of the list, as results are paged. */
export const WATCH_LIST_PAGE = 10;
const STOP_BUTTONS_PER_ROW = 5;

/** The page that holds `offset`, or the last one when the list got shorter. */
export const watchListOffset = (offset: number, total: number): number =>
  Math.min(Math.floor(offset / WATCH_LIST_PAGE) * WATCH_LIST_PAGE, Math.max(0, Math.ceil(total / WATCH_LIST_PAGE) - 1) * WATCH_LIST_PAGE);


/** «только статус · только в сводке · ⏸ на паузе до 25.11.2026 14:05», or null for a watch with the defaults. */
export const renderWatchOptions = (watch: Watch, t: Translate, fmt: Formatter, now: Date): string | null => {
  const parts = [
    ...(watch.statusOnly ? [t('snooze.statusOnly')] : []),
    ...(watch.digestOnly ? [t('snooze.digestOnly')] : []),
    ...(watch.snoozedUntil !== undefined && watch.snoozedUntil > now.getTime() ? [t('snooze.snoozedUntil', { until: fmt.dateTime(new Date(watch.snoozedUntil), now) })] : []),
  ];
  return parts.length === 0 ? null : parts.join(' · ');
};

/**
 * The chat's watches, numbered: what, since when, the last change seen, its options; a 🔕 and a
 * ⚙ (its options) per watch and ◀ ▶ past one page. Empty: how to add one.
 */
export const renderWatchList = (watches: readonly Watch[], offset: number, t: Translate, fmt: Formatter, now: Date): View => {
  if (watches.length === 0) return { text: t('watch.none'), keyboard: [] };
  const from = watchListOffset(offset, watches.length);
  const shown = watches.slice(from, from + WATCH_LIST_PAGE);
  const lines = shown.map((watch, index) => {
    const item = t('watch.listItem', {
      n: from + index + 1,
      what: describeTarget(watch.target, t, fmt),
      since: fmt.date(fmt.day(new Date(watch.createdAt))),
      last: watch.lastChangeAt === undefined ? t('watch.noChanges') : t('watch.lastChange', { when: fmt.dateTime(new Date(watch.lastChangeAt), now) }),
    });
    const options = renderWatchOptions(watch, t, fmt, now);
    return options === null ? item : `${item}
${options}`;
  });
  const title = t('watch.listTitle', { from: from + 1, to: from + shown.length, total: watches.length });
  const stops: InlineKeyboardButton[] = shown.map((watch, index) => ({
    text: t('watch.button.stopNumbered', { n: from + index + 1 }),
    callback_data: packCallback({ type: 'unwatch', watchId: watch.id }),
    style: 'danger',
  }));
  const settings: InlineKeyboardButton[] = shown.map((watch, index) => ({
    text: t('snooze.button.settings', { n: from + index + 1 }),
    callback_data: packCallback({ type: 'watchSettings', watchId: watch.id, offset: from }),
  }));
  const rows: InlineKeyboardButton[][] = [];
  for (let start = 0; start < stops.length; start += STOP_BUTTONS_PER_ROW) rows.push(stops.slice(start, start + STOP_BUTTONS_PER_ROW));
  for (let start = 0; start < settings.length; start += STOP_BUTTONS_PER_ROW) rows.push(settings.slice(start, start + STOP_BUTTONS_PER_ROW));
  return { text: [title, ...lines].join('\n\n'), keyboard: [...rows, ...renderListPager(from, watches.length, t)] };
};

const renderListPager = (offset: number, total: number, t: Translate): InlineKeyboardButton[][] => {
  const nav = pageNavigation({ offset, limit: WATCH_LIST_PAGE, total });
  if (nav.pages <= 1) return [];
  const to = (at: number | undefined) => (at === undefined ? undefined : packCallback({ type: 'watchList', offset: at }));
  return [pagerRow(t, nav, to(nav.prev), to(nav.next))];
};
