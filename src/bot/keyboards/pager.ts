import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import { packCallback, type QueryRef } from '../callback-data/codec.ts';
import { pageNavigation, type PageWindow } from '../paging.ts';

/** ◀ 2/5 ▶ under a results page; no ◀ on the first page, no ▶ on the last, nothing for one page. */
export const renderPager = (window: PageWindow, ref: QueryRef, t: Translate): InlineKeyboardButton[][] => {
  const nav = pageNavigation(window);
  if (nav.pages <= 1 && nav.prev === undefined) return [];
  const to = (offset: number) => packCallback({ type: 'page', ref, limit: window.limit, offset, refresh: false });
  const row: InlineKeyboardButton[] = [];
  if (nav.prev !== undefined) row.push({ text: t('pager.prev'), callback_data: to(nav.prev) });
  row.push({ text: t('pager.position', { page: nav.page, pages: nav.pages }), callback_data: packCallback({ type: 'noop' }) });
  if (nav.next !== undefined) row.push({ text: t('pager.next'), callback_data: to(nav.next) });
  return [row];
};
