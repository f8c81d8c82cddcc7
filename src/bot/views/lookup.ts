import type { InlineKeyboardButton } from 'telegraf/types';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Results } from '../../portal/client.ts';
import type { QueryRef } from '../callback-data.ts';
import { renderPager } from './pager.ts';
import { renderNothingFound, renderResultsText } from './results.ts';

export type View = { text: string; keyboard: InlineKeyboardButton[][] };

/** A results message: the page's cards and the pager, or "nothing found" with the filter. */
export const renderLookup = ({ query, page, paging }: Results, ref: QueryRef, t: Translate, fmt: Formatter): View => {
  if (page.items.length === 0) return { text: renderNothingFound(query, t, fmt), keyboard: [] };
  const window = { offset: paging.offset, limit: paging.limit, total: Math.max(page.total, paging.offset + page.items.length) };
  return {
    text: renderResultsText({ query, items: page.items, ...window }, t, fmt),
    keyboard: renderPager(window, ref, t),
  };
};
