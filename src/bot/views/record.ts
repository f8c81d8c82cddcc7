import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Results } from '../../portal/client.ts';
import type { QueryRef } from '../callback-data/codec.ts';
import { recordId } from '../callback-data/record-id.ts';
import { renderRecordKeyboard } from '../keyboards/record.ts';
import type { WatchState } from '../keyboards/watch-button.ts';
import type { View } from '../../telegram/view.ts';
import { recordsOf, withViews } from './resources.ts';

/**
 * One record of a results page in full, with its keyboard (cross-links, its own pages, Back (not
 * when the page holds this record alone) and Refresh, 🔔/🔕 when `watch` is given). Undefined when the page no longer has a record at that place.
 */
export const renderRecord = (
  results: Results,
  place: { index: number; part: number },
  refs: { list: QueryRef },
  t: Translate,
  fmt: Formatter,
  fetchedAt?: Date,
  watch?: WatchState,
): View | undefined =>
  withViews(recordsOf(results), (items, views) => {
    const item = items[place.index];
    if (item === undefined) return undefined;
    const details = views.details(item, place.part, t, fmt, fetchedAt);
    // A lookup that found this record alone has no list to go back to.
    const alone = results.paging.offset === 0 && items.length === 1 && results.page.total <= 1;
    const at = { list: refs.list, paging: results.paging, index: place.index, id: recordId(views.sapId(item)), alone };
    return { text: details.text, keyboard: renderRecordKeyboard(details, at, t, watch) };
  });
