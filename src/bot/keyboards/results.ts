import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import type { Paging } from '../../query.ts';
import { packCallback, type QueryRef } from '../callback-data/codec.ts';
import type { PageWindow } from '../paging.ts';
import { renderPager } from './pager.ts';
import { renderWatchButton, type WatchState } from './watch-button.ts';

const OPEN_BUTTONS_PER_ROW = 5;

/**
 * Under a results page: a numbered button per record that opens it, the pager, 📊 Excel (every
 * record of the query as a file), Refresh, and 🔔/🔕 when given the watch state.
 */
export const renderResultsKeyboard = (
  ids: readonly string[],
  { paging, window, ref, watch }: { paging: Paging; window: PageWindow; ref: QueryRef; watch?: WatchState },
  t: Translate,
): InlineKeyboardButton[][] => {
  const open: InlineKeyboardButton[] = ids.map((id, index) => ({
    text: t('buttons.openRecord', { n: paging.offset + index + 1 }),
    callback_data: packCallback({ type: 'record', ref, ...paging, index, part: 0, id, refresh: false }),
  }));
  const rows: InlineKeyboardButton[][] = [];
  for (let start = 0; start < open.length; start += OPEN_BUTTONS_PER_ROW) rows.push(open.slice(start, start + OPEN_BUTTONS_PER_ROW));
  const refresh = { text: t('buttons.refresh'), callback_data: packCallback({ type: 'page', ref, ...paging, refresh: true }) };
  const bell = watch ? [renderWatchButton(watch, { type: 'watch', ref }, t)] : [];
  const excel = { text: t('export.button'), callback_data: packCallback({ type: 'export', ref }) };
  return [...rows, ...renderPager(window, ref, t), [excel], [refresh, ...bell]];
};
