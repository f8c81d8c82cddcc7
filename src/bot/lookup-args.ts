import { recognise, type Recognised } from '../recognise.ts';
import { fold, ORDER_FILTERS, parseLookupValue, SPECIFICATION_FILTERS, type LookupValue, type Query, type Resource } from '../query.ts';

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

export type LookupArgs = { ok: true; query: Query } | { ok: false; reason: 'empty' } | Exclude<LookupValue, { ok: true }>;

/** What reading arguments needs of the moment: the day it is in TIME_ZONE (ISO), for `сегодня` and `15 марта`. */
export type ArgsContext = { today?: string };

export const parseLookupArgs = (resource: Resource, payload: string, { today }: ArgsContext = {}): LookupArgs => {
  const text = fold(payload);
  if (text === '') return { ok: false, reason: 'empty' };
  const [first = '', ...rest] = text.split(' ');
  const keyword = KEYWORDS[resource][first.toLowerCase()];
  const filter = keyword ?? DEFAULT_FILTER[resource];
  const value = parseLookupValue(filter, keyword ? rest.join(' ') : text, today);
  if (!value.ok) return value;
  return { ok: true, query: { resource, filter, value: value.value } as Query };
};

/** The filter a payload's first word names (`status`, `тип`…), if it names one. */
export const keywordFilter = (resource: Resource, payload: string): Query['filter'] | undefined =>
  KEYWORDS[resource][fold(payload).split(' ')[0]?.toLowerCase() ?? ''];

const RESOURCE_WORDS: Record<string, Resource> = {
  order: 'order',
  заказ: 'order',
  spec: 'specification',
  спец: 'specification',
  спецификация: 'specification',
};

/** The text starts with a resource word (`order`, `spec`, `заказ`…): it is a query in the inline words. */
export const startsWithResourceWord = (text: string): boolean => RESOURCE_WORDS[text.trim().split(/\s+/)[0]?.toLowerCase() ?? ''] !== undefined;

/**
 * A resource word, then what `/order` or `/spec` takes; without the word, an order (as a bare
 * `/order` argument is): `0007300100`, `material труба 530`, `spec ДП-77/2026`. What follows
 * `@bot` in inline mode and `/watch` in a chat. A resource word alone is `empty`.
 */
export const parseResourceArgs = (text: string, context: ArgsContext = {}): LookupArgs => {
  const [first = '', ...rest] = text.trim().split(/\s+/);
  const resource = RESOURCE_WORDS[first.toLowerCase()];
  return resource ? parseLookupArgs(resource, rest.join(' '), context) : parseLookupArgs('order', text, context);
};

/**
 * `/order 0007300100 0007300321` or `7300100, 7300321`: two or more SAP numbers (space or comma
 * separated), read as the same numbers pasted are; undefined for anything else (one value, words).
 */
export const parseSapNumbers = (payload: string): Recognised | undefined => {
  const words = fold(payload).split(/[\s,;]+/).filter(Boolean);
  if (words.length < 2 || !words.every((word) => /^\d{1,10}$/.test(word))) return undefined;
  return recognise(words.map((word) => word.padStart(10, '0')).join(' '), 'strict');
};
