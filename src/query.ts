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

/** `2026-03-15` or `15.03.2026` → `2026-03-15`, only for a real calendar date. */
export const parseDate = (text: string): string | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) ?? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = text.includes('-') ? [match[1], match[2], match[3]] : [match[3], match[2], match[1]];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const iso = `${year}-${month}-${day}`;
  return date.toISOString().slice(0, 10) === iso ? iso : undefined;
};

/** Control characters never belong to a lookup; runs of white space mean one space. */
// eslint-disable-next-line no-control-regex
export const fold = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * The one check of a filter's value, typed or carried by a button: the value as the portal gets
 * it (white space folded, a date as `YYYY-MM-DD`), or why no portal call should be made for it.
 */
export const parseLookupValue = (filter: Query['filter'], raw: string): LookupValue => {
  const value = fold(raw);
  if (value === '') return { ok: false, reason: 'missingValue' };
  if (value.length > MAX_VALUE_LENGTH) return { ok: false, reason: 'tooLong', max: MAX_VALUE_LENGTH };
  if (!DATE_FILTERS.has(filter)) return { ok: true, value };
  const date = parseDate(value);
  return date ? { ok: true, value: date } : { ok: false, reason: 'badDate', value };
};

/** Whether `value` is exactly what a typed command gives for `filter`: what a button or the store may carry. */
export const isQueryValue = (filter: Query['filter'], value: string): boolean => {
  const checked = parseLookupValue(filter, value);
  return checked.ok && checked.value === value;
};
