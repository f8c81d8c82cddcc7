// The query vocabulary, for every layer: what can be asked of the portal (a resource, one filter,
// its value, the paging) and the one check of a value. How it becomes URL parameters is the
// portal's (src/portal/search-params.ts).

export const PAGE_SIZES = [5, 10, 20] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export const isPageSize = (value: number): value is PageSize => (PAGE_SIZES as readonly number[]).includes(value);

export const ORDER_FILTERS = [
  'SAP_ID',
  'CRM_ID',
  'DATE_ORDER',
  'STATUS',
  'POSITION[MATERIAL_NAME]',
  'POSITION[MATERIAL_SAP_ID]',
] as const;

export const SPECIFICATION_FILTERS = [
  'CONTRACT_NUMBER',
  'SPECIFICATION_NUMBER',
  'STATUS',
  'STATUS_TYPE',
  'ORDER[DATE_ORDER]',
  'POSITION[MATERIAL_NAME]',
  'POSITION[MATERIAL_SAP_ID]',
] as const;

export type OrderFilter = (typeof ORDER_FILTERS)[number];
export type SpecificationFilter = (typeof SPECIFICATION_FILTERS)[number];
export type Resource = 'order' | 'specification';

export type OrderQuery = { resource: 'order'; filter: OrderFilter; value: string };
export type SpecificationQuery = { resource: 'specification'; filter: SpecificationFilter; value: string };
export type Query = OrderQuery | SpecificationQuery;

export type Paging = { limit: PageSize; offset: number };

/** The filters whose value is a calendar date (ISO `YYYY-MM-DD` inside the bot). */
export const DATE_FILTERS: ReadonlySet<string> = new Set(['DATE_ORDER', 'ORDER[DATE_ORDER]']);

/** Longer values are no lookup anyone means; they are refused before the portal is asked. */
export const MAX_VALUE_LENGTH = 100;

export type LookupValue =
  | { ok: true; value: string }
  | { ok: false; reason: 'missingValue' }
  | { ok: false; reason: 'badDate'; value: string }
  | { ok: false; reason: 'tooLong'; max: number };

// Dates as people write them: `2026-03-15`, `15.03.2026`, `15.03.26`, `15 марта [2026]`,
// `15 Mar [2026]`, `сегодня`/`today`, `вчера`/`yesterday`. The words and a date without a year
// need the day it is now in TIME_ZONE (`today`, ISO, from the zone helper): without it they are
// no date, so a button or the store can only carry an ISO date.

/** Month names as written after a day: Russian (genitive, nominative, short) and English (full, short). */
const MONTHS: ReadonlyArray<readonly string[]> = [
  ['января', 'январь', 'янв', 'january', 'jan'],
  ['февраля', 'февраль', 'фев', 'february', 'feb'],
  ['марта', 'март', 'мар', 'march', 'mar'],
  ['апреля', 'апрель', 'апр', 'april', 'apr'],
  ['мая', 'май', 'may'],
  ['июня', 'июнь', 'июн', 'june', 'jun'],
  ['июля', 'июль', 'июл', 'july', 'jul'],
  ['августа', 'август', 'авг', 'august', 'aug'],
  ['сентября', 'сентябрь', 'сен', 'сент', 'september', 'sep', 'sept'],
  ['октября', 'октябрь', 'окт', 'october', 'oct'],
  ['ноября', 'ноябрь', 'ноя', 'нояб', 'november', 'nov'],
  ['декабря', 'декабрь', 'дек', 'december', 'dec'],
];
const MONTH_OF: ReadonlyMap<string, number> = new Map(MONTHS.flatMap((names, index) => names.map((name) => [name, index + 1] as const)));
const DAYS_BACK: Readonly<Record<string, number>> = { сегодня: 0, today: 0, вчера: 1, yesterday: 1 };

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** The ISO date of a day, month and year, only when that day exists. */
const isoDate = (year: number, month: number, day: number): string | undefined => {
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year);
  const iso = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
  return year >= 1 && year <= 9999 && date.toISOString().slice(0, 10) === iso ? iso : undefined;
};

/** `today` (ISO) moved back by whole days. */
const daysBefore = (today: string, days: number): string | undefined => {
  const [year = 0, month = 0, day = 0] = today.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day - days));
  return isoDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
};

/** A date as people write it → `YYYY-MM-DD`, only for a real calendar date; `today` is ISO, in TIME_ZONE. */
export const parseDate = (text: string, today?: string): string | undefined => {
  const value = text.trim().toLowerCase().replaceAll('ё', 'е');
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dotted = /^(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})$/.exec(value);
  if (dotted) {
    const year = dotted[3]!.length === 2 ? 2000 + Number(dotted[3]) : Number(dotted[3]);
    return isoDate(year, Number(dotted[2]), Number(dotted[1]));
  }
  const back = DAYS_BACK[value];
  if (back !== undefined) return today === undefined ? undefined : daysBefore(today, back);
  const named = /^(\d{1,2})\s+(\p{L}+)\.?(?:\s+(\d{4}))?(?:\s*(?:г\.?|года))?$/u.exec(value);
  const month = named ? MONTH_OF.get(named[2]!) : undefined;
  if (!named || month === undefined) return undefined;
  const year = named[3] ?? today?.slice(0, 4);
  return year === undefined ? undefined : isoDate(Number(year), month, Number(named[1]));
};

/** Control characters never belong to a lookup; runs of white space mean one space. */
// eslint-disable-next-line no-control-regex
export const fold = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * Identifiers as the portal writes them: SAP numbers and material codes zero-padded, CRM ids,
 * contract numbers and status types in capitals. Other values go as typed.
 */
const AS_THE_PORTAL_WRITES: Partial<Record<Query['filter'], (value: string) => string>> = {
  SAP_ID: (value) => (/^\d{1,10}$/.test(value) ? value.padStart(10, '0') : value),
  'POSITION[MATERIAL_SAP_ID]': (value) => (/^\d{1,18}$/.test(value) ? value.padStart(18, '0') : value),
  CRM_ID: (value) => value.toUpperCase(),
  CONTRACT_NUMBER: (value) => value.toUpperCase(),
  STATUS_TYPE: (value) => value.toUpperCase(),
};

/**
 * The one check of a filter's value, typed or carried by a button: the value as the portal gets
 * it (white space folded, identifiers as the portal writes them, a date as `YYYY-MM-DD`), or why
 * no portal call should be made for it. `today` (ISO, in TIME_ZONE) lets a typed date be a word.
 */
export const parseLookupValue = (filter: Query['filter'], raw: string, today?: string): LookupValue => {
  const value = fold(raw);
  if (value === '') return { ok: false, reason: 'missingValue' };
  if (value.length > MAX_VALUE_LENGTH) return { ok: false, reason: 'tooLong', max: MAX_VALUE_LENGTH };
  if (!DATE_FILTERS.has(filter)) return { ok: true, value: AS_THE_PORTAL_WRITES[filter]?.(value) ?? value };
  const date = parseDate(value, today);
  return date ? { ok: true, value: date } : { ok: false, reason: 'badDate', value };
};

/** Whether `value` is exactly what a typed command gives for `filter`: what a button or the store may carry. */
export const isQueryValue = (filter: Query['filter'], value: string): boolean => {
  const checked = parseLookupValue(filter, value);
  return checked.ok && checked.value === value;
};
