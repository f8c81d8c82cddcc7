import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { Resource } from '../../query.ts';
import type { Results } from '../../portal/client.ts';
import type { QueryRef } from '../callback-data/codec.ts';
import { recordId } from '../callback-data/record-id.ts';
import { linkableMaterials, renderMaterialsKeyboard } from '../keyboards/materials.ts';
import { renderRecordKeyboard, type RecordPlace } from '../keyboards/record.ts';
import type { WatchState } from '../keyboards/watch-button.ts';
import type { RichView, View } from '../../telegram/view.ts';
import { recordsOf, withViews, type ResourceViews } from './resources.ts';

type Place = { index: number; part: number };

/** A page that holds one record and no more: the lookup found exactly one, so there is no list to go back to. */
export const isSingle = (results: Results): boolean => results.paging.offset === 0 && results.page.items.length === 1 && results.page.total <= 1;

const placeOf = (results: Results, refs: { list: QueryRef }, index: number, id: string): RecordPlace => ({ list: refs.list, paging: results.paging, index, id, alone: isSingle(results) });

/** What both views of a record link to besides its parts: whether it has materials to choose from, its number to copy. */
const linksOf = <R extends object>(results: Results, views: ResourceViews<R>, item: R, t: Translate) => ({
  materials: linkableMaterials(results.resource, views.materials(item)).length > 0,
  copy: views.copy(item, t),
});

/**
 * One record of a results page in full, as HTML in the message of the results page, with its
 * keyboard (cross-links, its own pages, Back (not when the page holds this record alone) and
 * Refresh, 🔔/🔕 when `watch` is given). Undefined when the page no longer has a record at that place.
 */
export const renderRecord = (
  results: Results,
  place: Place,
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
    const links = { ...details, ...linksOf(results, views, item, t) };
    return { text: details.text, keyboard: renderRecordKeyboard(links, placeOf(results, refs, place.index, recordId(views.sapId(item))), t, { watch, back: true }) };
  });

/**
 * One record in full as a rich message (Bot API 10.1): its table and details blocks, the whole
 * record in one message unless it passes Telegram's limits; a message of its own, so no Back.
 * Its fallback is the HTML view above, for a server without rich messages or content Telegram refused.
 */
export const renderRichRecordView = (
  results: Results,
  place: Place,
  refs: { list: QueryRef },
  t: Translate,
  fmt: Formatter,
  fetchedAt?: Date,
  watch?: WatchState,
): RichView | undefined =>
  withViews(recordsOf(results), (items, views) => {
    const item = items[place.index];
    if (item === undefined) return undefined;
    const rich = views.rich(item, place.part, t, fmt, fetchedAt);
    const links = { part: rich.part, parts: rich.parts, relatedOrders: views.requests(item), ...linksOf(results, views, item, t) };
    return {
      rich: rich.html,
      keyboard: renderRecordKeyboard(links, placeOf(results, refs, place.index, recordId(views.sapId(item))), t, { watch, back: false }),
      fallback: () => renderRecord(results, place, refs, t, fmt, fetchedAt, watch)!,
      label: views.sapId(item).trim(),
    };
  });

/** The keyboard choosing one of a record's materials (📦 / 📄), in place of the record's own. */
export const renderRecordMaterials = (results: Results, place: { index: number; page: number }, resource: Resource, refs: { list: QueryRef }, t: Translate) =>
  withViews(recordsOf(results), (items, views) => {
    const item = items[place.index];
    if (item === undefined) return undefined;
    return renderMaterialsKeyboard(views.materials(item), resource, place.page, placeOf(results, refs, place.index, recordId(views.sapId(item))), t);
  });
