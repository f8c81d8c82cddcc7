import { ORDER_FILTERS, SPECIFICATION_FILTERS, DATE_FILTERS, type Query, type Resource } from '../portal/query.ts';

// `/order crm CRM-1` → { resource: 'order', filter: 'CRM_ID', value: 'CRM-1' }. The first filter of
// each list is the one a bare argument means.

const KEYWORDS: Record<Resource, Record<string, Query['filter']>> = {
  order: {
    crm: 'CRM_ID',
    срм: 'CRM_ID',
    date: 'DATE_ORDER',
    дата: 'DATE_ORDER',
    status: 'STATUS',
    статус: 'STATUS',
    material: 'POSITION[MATERIAL_NAME]',
    материал: 'POSITION[MATERIAL_NAME]',
    code: 'POSITION[MATERIAL_SAP_ID]',
    код: 'POSITION[MATERIAL_SAP_ID]',
  },
  specification: {
    number: 'SPECIFICATION_NUMBER',
    номер: 'SPECIFICATION_NUMBER',
    status: 'STATUS',
    статус: 'STATUS',
    type: 'STATUS_TYPE',
    тип: 'STATUS_TYPE',
    date: 'ORDER[DATE_ORDER]',
    дата: 'ORDER[DATE_ORDER]',
    material: 'POSITION[MATERIAL_NAME]',
    материал: 'POSITION[MATERIAL_NAME]',
    code: 'POSITION[MATERIAL_SAP_ID]',
    код: 'POSITION[MATERIAL_SAP_ID]',
  },
};

const DEFAULT_FILTER = { order: ORDER_FILTERS[0], specification: SPECIFICATION_FILTERS[0] } as const;

/** Longer values are no lookup anyone means; they are refused before the portal is asked. */
export const MAX_VALUE_LENGTH = 100;

export type LookupValue =
  | { ok: true; value: string }
  | { ok: false; reason: 'missingValue' }
  | { ok: false; reason: 'badDate'; value: string }
  | { ok: false; reason: 'tooLong'; max: number };

export type LookupArgs = { ok: true; query: Query } | { ok: false; reason: 'empty' } | Exclude<LookupValue, { ok: true }>;

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
const fold = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();

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

export const parseLookupArgs = (resource: Resource, payload: string): LookupArgs => {
  const text = fold(payload);
  if (text === '') return { ok: false, reason: 'empty' };
  const [first = '', ...rest] = text.split(' ');
  const keyword = KEYWORDS[resource][first.toLowerCase()];
  const filter = keyword ?? DEFAULT_FILTER[resource];
  const value = parseLookupValue(filter, keyword ? rest.join(' ') : text);
  if (!value.ok) return value;
  return { ok: true, query: { resource, filter, value: value.value } as Query };
};

const RESOURCE_WORDS: Record<string, Resource> = {
  order: 'order',
  заказ: 'order',
  spec: 'specification',
  спец: 'specification',
  спецификация: 'specification',
};

/**
 * A resource word, then what `/order` or `/spec` takes; without the word, an order (as a bare
 * `/order` argument is): `0007300100`, `material труба 530`, `spec ДП-77/2026`. What follows
 * `@bot` in inline mode and `/watch` in a chat. A resource word alone is `empty`.
 */
export const parseResourceArgs = (text: string): LookupArgs => {
  const [first = '', ...rest] = text.trim().split(/\s+/);
  const resource = RESOURCE_WORDS[first.toLowerCase()];
  return resource ? parseLookupArgs(resource, rest.join(' ')) : parseLookupArgs('order', text);
};
