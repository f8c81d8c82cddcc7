import type { InlineKeyboardButton } from 'telegraf/types';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Results } from '../../portal/client.ts';
import { packCallback, type QueryRef } from '../callback-data/codec.ts';
import { renderPager } from '../keyboards/pager.ts';
import { renderNothingFound, renderResultsText } from './results.ts';
import type { View } from './common/view.ts';
import type { Order, Specification } from '../../portal/schemas.ts';
import { recordId } from '../callback-data/record-id.ts';

const OPEN_BUTTONS_PER_ROW = 5;

/**
 * A results message: the page's cards; a numbered button per card that opens it; the pager; and
 * Refresh. Or "nothing found" with the filter.
 */
export const renderLookup = (
  { query, page, paging }: Results,
  ref: QueryRef,
  t: Translate,
  fmt: Formatter,
  fetchedAt?: Date,
): View => {
  if (page.items.length === 0) return { text: renderNothingFound(query, t, fmt), keyboard: [] };
  const window = { offset: paging.offset, limit: paging.limit, total: Math.max(page.total, paging.offset + page.items.length) };
  const open: InlineKeyboardButton[] = page.items.map((record: Order | Specification, index) => ({
    text: t('buttons.openRecord', { n: paging.offset + index + 1 }),
    callback_data: packCallback({ type: 'record', ref, ...paging, index, part: 0, id: recordId(record), refresh: false }),
  }));
  const rows: InlineKeyboardButton[][] = [];
  for (let start = 0; start < open.length; start += OPEN_BUTTONS_PER_ROW) rows.push(open.slice(start, start + OPEN_BUTTONS_PER_ROW));
  const refresh = { text: t('buttons.refresh'), callback_data: packCallback({ type: 'page', ref, ...paging, refresh: true }) };
  return {
    text: renderResultsText({ query, items: page.items, ...window, ...(fetchedAt ? { fetchedAt } : {}) }, t, fmt),
    keyboard: [...rows, ...renderPager(window, ref, t), [refresh]],
  };
};
