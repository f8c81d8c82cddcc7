import type { OrderFilter, Query, SpecificationFilter } from '../query.ts';
import { transliterate } from './transliterate.ts';

// `orders-status-production-2026-11-23.xlsx`: what the file holds, in ASCII, so that every mail
// client and file system keeps the name. The filter is named by its /order or /spec keyword.

const RESOURCE_WORDS: Record<Query['resource'], string> = { order: 'orders', specification: 'specifications' };

const FILTER_WORDS: { order: Record<OrderFilter, string>; specification: Record<SpecificationFilter, string> } = {
  order: {
    SAP_ID: 'sap',
    CRM_ID: 'crm',
    DATE_ORDER: 'date',
    STATUS: 'status',
    'POSITION[MATERIAL_NAME]': 'material',
    'POSITION[MATERIAL_SAP_ID]': 'code',
  },
  specification: {
    CONTRACT_NUMBER: 'contract',
    SPECIFICATION_NUMBER: 'number',
    STATUS: 'status',
    STATUS_TYPE: 'type',
    'ORDER[DATE_ORDER]': 'date',
    'POSITION[MATERIAL_NAME]': 'material',
    'POSITION[MATERIAL_SAP_ID]': 'code',
  },
};

/** What an export file is, for the upload to say (Telegram would otherwise be told only "bytes"). */
export const XLSX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The longest the user's value gets in the name. */
export const MAX_VALUE_PART = 60;

const filterWord = (query: Query): string =>
  query.resource === 'order' ? FILTER_WORDS.order[query.filter] : FILTER_WORDS.specification[query.filter];

/** Latin letters and digits, every other run of characters one "-", none at either end. */
export const slug = (text: string, max: number): string =>
  transliterate(text)
    .replace(/[^A-Za-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');

/** The file name for an export of `query` made on `date` (yyyy-MM-dd, the bot's time zone). */
export const exportFileName = (query: Query, date: string): string => {
  const value = slug(query.value, MAX_VALUE_PART);
  return [RESOURCE_WORDS[query.resource], filterWord(query), value, slug(date, 10)].filter((part) => part !== '').join('-') + '.xlsx';
};
