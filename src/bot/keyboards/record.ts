import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import type { Paging, Query } from '../../query.ts';
import { canInline, packCallback, type QueryRef } from '../callback-data/codec.ts';
import { renderWatchButton, type WatchState } from './watch-button.ts';

const MAX_MATERIAL_ROWS = 10;
const MAX_REQUEST_BUTTONS = 12;
const REQUESTS_PER_ROW = 3;

/** "000000000010012345" → "10012345": the code as people say it. */
const shortCode = (code: string) => code.replace(/^0+(?=\d)/, '');

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));

/**
 * What a record shown in full links to (a DetailsView, src/bot/views/common/details-view.ts):
 * the part shown, of how many; the positions' materials and the related orders on it.
 */
export type RecordLinks = { part: number; parts: number; positions: ReadonlyArray<{ materialSapId: string }>; relatedOrders: readonly string[] };

/** Where the record stands: the page it is on (its list), its place there and its fingerprint; `alone`: found alone, no list to go back to. */
export type RecordPlace = { list: QueryRef; paging: Paging; index: number; id: string; alone?: boolean };

/**
 * Under a record in full: cross-links (related production requests; orders and specifications
 * with a position's material), its own pages for long lists, Back and Refresh,
 * and 🔔/🔕 when given the watch state.
 */
export const renderRecordKeyboard = (details: RecordLinks, place: RecordPlace, t: Translate, watch?: WatchState): InlineKeyboardButton[][] => {
  const at = (part: number, refresh = false) =>
    packCallback({ type: 'record', ref: place.list, ...place.paging, index: place.index, part, id: place.id, refresh });
  // Cross-links go to SAP numbers and material codes, which travel inside the button; a code
  // that would not fit gets no button rather than a trip to the store from a pure view.
  const link = (text: string, query: Query): InlineKeyboardButton[] =>
    canInline(query) ? [{ text, callback_data: packCallback({ type: 'lookup', ref: { query } }) }] : [];

  const requests = details.relatedOrders
    .slice(0, MAX_REQUEST_BUTTONS)
    .flatMap((sapId) => link(t('buttons.openOrder', { sapId }), { resource: 'order', filter: 'SAP_ID', value: sapId }));
  const materials = [...new Set(details.positions.map((position) => position.materialSapId).filter(Boolean))];
  const materialRows = materials
    .slice(0, MAX_MATERIAL_ROWS)
    .map((code) => [
      ...link(t('buttons.ordersWithMaterial', { code: shortCode(code) }), { resource: 'order', filter: 'POSITION[MATERIAL_SAP_ID]', value: code }),
      ...link(t('buttons.specsWithMaterial', { code: shortCode(code) }), { resource: 'specification', filter: 'POSITION[MATERIAL_SAP_ID]', value: code }),
    ])
    .filter((row) => row.length > 0);
  const partRow: InlineKeyboardButton[] = [];
  if (details.parts > 1) {
    if (details.part > 0) partRow.push({ text: t('pager.prev'), callback_data: at(details.part - 1) });
    partRow.push({ text: t('pager.position', { page: details.part + 1, pages: details.parts }), callback_data: packCallback({ type: 'noop' }) });
    if (details.part < details.parts - 1) partRow.push({ text: t('pager.next'), callback_data: at(details.part + 1) });
  }
  const back = { text: t('buttons.back'), callback_data: packCallback({ type: 'page', ref: place.list, ...place.paging, refresh: false }) };
  const refresh = { text: t('buttons.refresh'), callback_data: at(details.part, true) };
  const bell = watch
    ? [renderWatchButton(watch, { type: 'watchRecord', ref: place.list, ...place.paging, index: place.index, id: place.id }, t)]
    : [];
  return [...chunk(requests, REQUESTS_PER_ROW), ...materialRows, ...(partRow.length > 0 ? [partRow] : []), [...(place.alone ? [] : [back]), refresh, ...bell]];
};
