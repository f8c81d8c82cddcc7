import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import type { Paging, Query, Resource } from '../../query.ts';
import { canInline, packCallback, type QueryRef } from '../callback-data/codec.ts';
import { pagerRow } from './pager.ts';
import { renderWatchButton, type WatchState } from './watch-button.ts';

const MAX_REQUEST_BUTTONS = 12;
const REQUESTS_PER_ROW = 3;
/** Copy button labels longer than this are cut: the copied text stays whole (up to Telegram's 256). */
const MAX_COPY_LABEL = 40;
const MAX_COPY_TEXT = 256;

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));

const cut = (text: string, max: number) => (Array.from(text).length <= max ? text : `${Array.from(text).slice(0, max - 1).join('')}…`);

/**
 * What a record shown in full links to: the part shown, of how many; the related orders on it
 * (specifications); whether it has materials to find other records by; its number to copy.
 */
export type RecordLinks = {
  part: number;
  parts: number;
  relatedOrders: readonly string[];
  materials: boolean;
  /** The button's label and the text it copies (a SAP number; a contract and specification number). */
  copy?: { label: string; text: string };
};

/** Where the record stands: the page it is on (its list), its place there and its fingerprint; `alone`: found alone, no list to go back to. */
export type RecordPlace = { list: QueryRef; paging: Paging; index: number; id: string; alone?: boolean };

/**
 * Under a record in full: one button each to find orders and specifications with one of its
 * materials (a short list to choose from, keyboards/materials.ts), its production requests, a
 * button copying its number, its own pages, Back (when the record replaced its results page in
 * the same message) and Refresh, and 🔔/🔕 when given the watch state.
 */
export const renderRecordKeyboard = (
  links: RecordLinks,
  place: RecordPlace,
  t: Translate,
  { watch, back }: { watch?: WatchState | undefined; back: boolean },
): InlineKeyboardButton[][] => {
  const at = (part: number, refresh = false) =>
    packCallback({ type: 'record', ref: place.list, ...place.paging, index: place.index, part, id: place.id, refresh });
  // A request goes to its SAP number, which travels inside the button; one that would not fit gets
  // no button rather than a trip to the store from a pure view.
  const link = (text: string, query: Query): InlineKeyboardButton[] =>
    canInline(query) ? [{ text, callback_data: packCallback({ type: 'lookup', ref: { query } }) }] : [];
  const choose = (resource: Resource): InlineKeyboardButton => ({
    text: t(resource === 'order' ? 'rich.ordersWithMaterial' : 'rich.specsWithMaterial'),
    callback_data: packCallback({ type: 'materials', resource, ref: place.list, ...place.paging, index: place.index, page: 0, id: place.id }),
  });
  const requests = links.relatedOrders
    .slice(0, MAX_REQUEST_BUTTONS)
    .flatMap((sapId) => link(t('buttons.openOrder', { sapId }), { resource: 'order', filter: 'SAP_ID', value: sapId }));
  const copy: InlineKeyboardButton[] =
    links.copy === undefined || links.copy.text.trim() === ''
      ? []
      : [{ text: t('rich.copy', { value: cut(links.copy.label, MAX_COPY_LABEL) }), copy_text: { text: cut(links.copy.text, MAX_COPY_TEXT) } }];
  const parts = links.parts > 1 ? [pagerRow(t, { page: links.part + 1, pages: links.parts }, links.part > 0 ? at(links.part - 1) : undefined, links.part < links.parts - 1 ? at(links.part + 1) : undefined)] : [];
  const last: InlineKeyboardButton[] = [
    ...(back && place.alone !== true ? [{ text: t('buttons.back'), callback_data: packCallback({ type: 'page', ref: place.list, ...place.paging, refresh: false }) }] : []),
    { text: t('buttons.refresh'), callback_data: at(links.part, true) },
    ...(watch ? [renderWatchButton(watch, { type: 'watchRecord', ref: place.list, ...place.paging, index: place.index, id: place.id }, t)] : []),
  ];
  return [
    ...(links.materials ? [[choose('order'), choose('specification')]] : []),
    ...chunk(requests, REQUESTS_PER_ROW),
    ...(copy.length > 0 ? [copy] : []),
    ...parts,
    last,
  ];
};
