import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { Translate } from '../../i18n.ts';
import type { Query, Resource } from '../../query.ts';
import { canInline, packCallback } from '../callback-data/codec.ts';
import { pagerRow } from './pager.ts';
import type { RecordPlace } from './record.ts';

/** Materials listed at once: a short list, one a row, with the pager and Back under them. */
export const MATERIALS_PER_PAGE = 8;
/** A material's name in its button, at most. */
const MAX_NAME = 40;

export type Material = { code: string; name: string };

const cut = (text: string, max: number) => (Array.from(text).length <= max ? text : `${Array.from(text).slice(0, max - 1).join('')}…`);

/** A material code's query for a resource, when it fits in a button (the codes of the portal do). */
const queryOf = (resource: Resource, code: string): Query | undefined => {
  const query: Query = { resource, filter: 'POSITION[MATERIAL_SAP_ID]', value: code };
  return canInline(query) ? query : undefined;
};

/** The materials that can be looked up from a button, each once. */
export const linkableMaterials = (resource: Resource, materials: readonly Material[]): Material[] =>
  materials.filter((material) => queryOf(resource, material.code) !== undefined);

/**
 * In place of a record's keyboard: its materials, each a button that finds the orders (or the
 * specifications) with it as a new message; pages of them; Back to the record's own keyboard.
 */
export const renderMaterialsKeyboard = (materials: readonly Material[], resource: Resource, page: number, place: RecordPlace, t: Translate): InlineKeyboardButton[][] => {
  const linkable = linkableMaterials(resource, materials);
  const pages = Math.max(1, Math.ceil(linkable.length / MATERIALS_PER_PAGE));
  const shown = Math.min(Math.max(0, page), pages - 1);
  const rows = linkable.slice(shown * MATERIALS_PER_PAGE, (shown + 1) * MATERIALS_PER_PAGE).map((material): InlineKeyboardButton[] => [
    {
      text: t(resource === 'order' ? 'rich.ordersWith' : 'rich.specsWith', { code: material.code.replace(/^0+(?=\d)/, ''), name: cut(material.name, MAX_NAME) }),
      callback_data: packCallback({ type: 'lookup', ref: { query: queryOf(resource, material.code)! } }),
    },
  ]);
  const to = (target: number) => packCallback({ type: 'materials', resource, ref: place.list, ...place.paging, index: place.index, page: target, id: place.id });
  const pager = pages > 1 ? [pagerRow(t, { page: shown + 1, pages }, shown > 0 ? to(shown - 1) : undefined, shown < pages - 1 ? to(shown + 1) : undefined)] : [];
  const back = { text: t('rich.backToRecord'), callback_data: packCallback({ type: 'record', ref: place.list, ...place.paging, index: place.index, part: 0, id: place.id, refresh: false }) };
  return [...rows, ...pager, [back]];
};
