import type { OrderFilter, SpecificationFilter } from '../query.ts';
import type { DemoOrder, DemoSpecification } from './sample-data.ts';

// How each filter of the spec matches a record. A matcher is built once per request from the
// filter's value and then applied to every record.

type Matcher<R> = (value: string) => (record: R) => boolean;
type Position = { MATERIAL_NAME?: string | null; MATERIAL_SAP_ID?: string | null };

const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** SAP numbers are zero-padded: "7300100" and "0007300100" are the same document. */
export const sameSapId = (record: unknown, wanted: string): boolean => {
  const have = text(record);
  if (have === wanted) return true;
  const digits = /^\d+$/;
  return digits.test(have) && digits.test(wanted) && have.replace(/^0+/, '') === wanted.replace(/^0+/, '');
};

// Latin letters that look like Cyrillic ones (people type "K52" or "530x8" on either layout),
// multiplication signs for «х», ё for е, and the decimal point for the decimal comma.
const LOOK_ALIKES: Record<string, string> = {
  a: 'а', b: 'в', c: 'с', e: 'е', h: 'н', k: 'к', m: 'м', o: 'о', p: 'р', t: 'т', x: 'х', y: 'у',
  '×': 'х', '*': 'х', ё: 'е', ',': '.',
};

export const foldMaterialName = (value: string): string =>
  value
    .toLowerCase()
    .replace(/[abcehkmoptxy×*ё,]/g, (char) => LOOK_ALIKES[char] ?? char)
    .replace(/\s+/g, ' ')
    .trim();

/** "2026-03-15" or "2026-03-15 00:00:00" (also with a T) → "2026-03-15"; anything else → null. */
export const parseDateFilter = (value: string): string | null =>
  /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(value)?.[1] ?? null;

const datePart = (timestamp: unknown): string => text(timestamp).slice(0, 10);

const caseless = (value: unknown): string => text(value).toLowerCase();

const positions = (record: { POSITION?: unknown }): Position[] =>
  Array.isArray(record.POSITION) ? (record.POSITION as Position[]).filter((item) => item != null) : [];

const byMaterialName = <R extends { POSITION?: unknown }>(value: string) => {
  const wanted = foldMaterialName(value);
  return (record: R) => positions(record).some((item) => foldMaterialName(text(item.MATERIAL_NAME)).includes(wanted));
};

const byMaterialCode = <R extends { POSITION?: unknown }>(value: string) => (record: R) =>
  positions(record).some((item) => sameSapId(item.MATERIAL_SAP_ID, value));

export const orderMatchers: Record<OrderFilter, Matcher<DemoOrder>> = {
  SAP_ID: (value) => (order) => sameSapId(order.SAP_ID, value),
  CRM_ID: (value) => (order) => text(order.CRM_ID) === value,
  DATE_ORDER: (value) => {
    const date = parseDateFilter(value);
    return (order) => date !== null && datePart(order.DATE_ORDER) === date;
  },
  STATUS: (value) => (order) => text(order.STATUS) === value,
  'POSITION[MATERIAL_NAME]': byMaterialName,
  'POSITION[MATERIAL_SAP_ID]': byMaterialCode,
};

export const specificationMatchers: Record<SpecificationFilter, Matcher<DemoSpecification>> = {
  CONTRACT_NUMBER: (value) => (specification) => caseless(specification.CONTRACT_NUMBER) === value.toLowerCase(),
  SPECIFICATION_NUMBER: (value) => (specification) => caseless(specification.SPECIFICATION_NUMBER) === value.toLowerCase(),
  STATUS: (value) => (specification) => text(specification.STATUS) === value,
  STATUS_TYPE: (value) => (specification) => text(specification.STATUS_TYPE) === value,
  'ORDER[DATE_ORDER]': (value) => {
    const date = parseDateFilter(value);
    return (specification) =>
      date !== null &&
      Array.isArray(specification.ORDER) &&
      specification.ORDER.some((order) => order != null && datePart(order.DATE_ORDER) === date);
  },
  'POSITION[MATERIAL_NAME]': byMaterialName,
  'POSITION[MATERIAL_SAP_ID]': byMaterialCode,
};

const compare = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);

/** Newest first by the given timestamp field (missing dates last), then by SAP_ID ascending. */
export const byDateThenSapId =
  <R extends { SAP_ID?: unknown }>(date: (record: R) => unknown) =>
  (left: R, right: R): number =>
    compare(text(date(right)), text(date(left))) || compare(text(left.SAP_ID), text(right.SAP_ID));
