import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import { packCallback, type QueryRef } from '../callback-data/codec.ts';
import { pageNavigation, type PageWindow } from '../paging.ts';

/**
 * ◀ 2/5 ▶: each arrow with the data of the page it leads to; at either end the arrow is shown
 * disabled (Bot API 10.3), not dropped, so the row keeps its shape (an older server gets it
 * without, src/telegram/fit.ts). The indicator does nothing.
 */
export const pagerRow = (t: Translate, at: { page: number; pages: number }, prev: string | undefined, next: string | undefined): InlineKeyboardButton[] => [
  prev === undefined ? { text: t('pager.prev'), disabled: {} } : { text: t('pager.prev'), callback_data: prev },
  { text: t('pager.position', { page: at.page, pages: at.pages }), callback_data: packCallback({ type: 'noop' }) },
  next === undefined ? { text: t('pager.next'), disabled: {} } : { text: t('pager.next'), callback_data: next },
];

/** ◀ 2/5 ▶ under a results page; nothing for one page. */
export const renderPager = (window: PageWindow, ref: QueryRef, t: Translate): InlineKeyboardButton[][] => {
  const nav = pageNavigation(window);
  if (nav.pages <= 1 && nav.prev === undefined) return [];
  const to = (offset: number | undefined) => (offset === undefined ? undefined : packCallback({ type: 'page', ref, limit: window.limit, offset, refresh: false }));
  return [pagerRow(t, nav, to(nav.prev), to(nav.next))];
};
