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
