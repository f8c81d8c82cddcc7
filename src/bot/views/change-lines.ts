import { EMPTY_VALUE } from '../../format.ts';
import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { FieldChange, RecordChange, Value } from '../../watch/changes.ts';
import { escapeHtml, shorten } from './common/html.ts';

// The pieces both change views are made of: a value shown per locale (HTML, escaped), a field
// line «Статус: Производство → Отгружен», the header and the entered/left line.

/** Portal text in a change line is cut here, so one odd value never fills a notification. */
export const MAX_CHANGE_TEXT = 200;

/** How a compared value reads: HTML, portal text escaped. */
export type Show = (value: Value, t: Translate, fmt: Formatter) => string;

/** Portal text as it is (escaped and clipped); nothing as «—». */
export const showText: Show = (value) => (value === null || value === '' ? EMPTY_VALUE : escapeHtml(shorten(String(value).trim(), MAX_CHANGE_TEXT)));

/** A number through one of the formatter's formats; a value that is not a number reads as text. */
const showNumber =
  (format: (fmt: Formatter, value: number) => string): Show =>
  (value, t, fmt) =>
    typeof value === 'number' ? escapeHtml(format(fmt, value)) : showText(value, t, fmt);

export const showMoney = showNumber((fmt, value) => fmt.money(value));
export const showNumberValue = showNumber((fmt, value) => fmt.number(value));
export const showTonnes = showNumber((fmt, value) => fmt.quantity(value, 'TNE'));
export const showMetres = showNumber((fmt, value) => fmt.quantity(value, 'MTR'));
export const showPieces = showNumber((fmt, value) => `${fmt.number(value)}\u00a0${fmt.unit('PCE')}`);
export const showUnit: Show = (value, t, fmt) => (typeof value === 'string' && value !== '' ? escapeHtml(shorten(fmt.unit(value), MAX_CHANGE_TEXT)) : showText(value, t, fmt));
export const showDate: Show = (value, t, fmt) => (typeof value === 'string' && value !== '' ? escapeHtml(fmt.date(value)) : showText(value, t, fmt));

/** A scalar field a view tells about: its label's key and how its values read. */
export type FieldView = { label: string; show: Show };

/** «Статус: Производство → Отгружен»; null for a field the view does not know (a newer snapshot's). */
export const fieldLine = (change: { field: string; from: Value; to: Value }, views: Record<string, FieldView>, t: Translate, fmt: Formatter): string | null => {
  const view = Object.hasOwn(views, change.field) ? views[change.field] : undefined;
  if (view === undefined) return null;
  return t('change.field', { label: t(view.label), from: view.show(change.from, t, fmt), to: view.show(change.to, t, fmt) });
};

/** «000010, Труба 530х8»: an item's key with what it is, when known (HTML). */
export const itemLabel = (item: string, name: Value | undefined, t: Translate, fmt: Formatter): string =>
  typeof name === 'string' && name.trim() !== '' ? `${showText(item, t, fmt)}, ${showText(name, t, fmt)}` : showText(item, t, fmt);

/** «Плановая дата производства, поз. 000010, Труба 530х8: не запланировано → 15.06.2026»; `key` takes {label} {item} {from} {to}. */
export const itemFieldLine = (
  key: string,
  change: Extract<FieldChange, { kind: 'itemField' }>,
  views: Record<string, FieldView>,
  t: Translate,
  fmt: Formatter,
): string | null => {
  const view = Object.hasOwn(views, change.field) ? views[change.field] : undefined;
  if (view === undefined) return null;
  return t(key, { label: t(view.label), item: itemLabel(change.item, change.name, t, fmt), from: view.show(change.from, t, fmt), to: view.show(change.to, t, fmt) });
};

/** A field of a list item, or null when the item does not have it. */
export const itemValue = (fields: Record<string, Value>, name: string): Value => (Object.hasOwn(fields, name) ? (fields[name] ?? null) : null);

/** «🔔 <title>» with the entered / left line, or the header alone for a changed record. */
export const headLines = (change: RecordChange, title: string, t: Translate): string[] => [
  t('change.header', { title }),
  ...(change.kind === 'changed' ? [] : [t(change.kind === 'entered' ? 'change.entered' : 'change.left')]),
];

/** A title fact as plain text, or '' when the portal left it empty. */
export const titleText = (change: Pick<RecordChange, 'title'>, name: string): string => {
  const value = itemValue(change.title, name);
  return value === null ? '' : shorten(String(value).trim(), MAX_CHANGE_TEXT);
};
