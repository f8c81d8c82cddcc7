import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Results } from '../../portal/client.ts';
import type { QueryRef } from '../callback-data/codec.ts';
import { renderResultsKeyboard } from '../keyboards/results.ts';
import type { WatchState } from '../keyboards/watch-button.ts';
import type { View } from '../../telegram/view.ts';
import { recordIds, recordsOf } from './resources.ts';
import { renderNothingFound, renderResultsText } from './results.ts';

/**
 * A results message: the page's cards and their keyboard (with 🔔/🔕 when `watch` is given); or
 * "nothing found" with the filter.
 */
export const renderLookup = (results: Results, ref: QueryRef, t: Translate, fmt: Formatter, fetchedAt?: Date, watch?: WatchState): View => {
  const { query, page, paging } = results;
  if (page.items.length === 0) return { text: renderNothingFound(query, t, fmt), keyboard: [] };
  const window = { offset: paging.offset, limit: paging.limit, total: Math.max(page.total, paging.offset + page.items.length) };
  const records = recordsOf(results);
  return {
    text: renderResultsText({ ...records, ...window, ...(fetchedAt ? { fetchedAt } : {}) }, t, fmt),
    keyboard: renderResultsKeyboard(recordIds(records), { paging, window, ref, ...(watch ? { watch } : {}) }, t),
  };
};
