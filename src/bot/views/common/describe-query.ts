import type { Formatter } from '../../../format.ts';
import type { Translate } from '../../../i18n.ts';
import { DATE_FILTERS } from '../../../query.ts';
import type { OrderFilter, Query, SpecificationFilter } from '../../../query.ts';
import { escapeHtml, shorten } from './html.ts';

const ORDER_FILTER_KEYS: Record<OrderFilter, string> = {
  SAP_ID: 'sapId',
  CRM_ID: 'crmId',
  DATE_ORDER: 'date',
  STATUS: 'status',
  'POSITION[MATERIAL_NAME]': 'material',
  'POSITION[MATERIAL_SAP_ID]': 'materialCode',
};

const SPECIFICATION_FILTER_KEYS: Record<SpecificationFilter, string> = {
  CONTRACT_NUMBER: 'contract',
  SPECIFICATION_NUMBER: 'number',
  STATUS: 'status',
  STATUS_TYPE: 'statusType',
  'ORDER[DATE_ORDER]': 'requestDate',
  'POSITION[MATERIAL_NAME]': 'material',
  'POSITION[MATERIAL_SAP_ID]': 'materialCode',
};

/** The echo of a user's value never dominates a message. */
export const MAX_ECHO_LENGTH = 100;

/** The localized name of the query's filter, e.g. «номер SAP» / "SAP no.". */
export const filterLabel = (query: Query, t: Translate): string =>
  query.resource === 'order'
    ? t(`filter.order.${ORDER_FILTER_KEYS[query.filter]}`)
    : t(`filter.spec.${SPECIFICATION_FILTER_KEYS[query.filter]}`);

/**
 * The filter and the user's value as HTML, e.g. «номер SAP «0007300100»». With a formatter a
 * date filter's ISO value reads as a local date.
 */
export const describeQuery = (query: Query, t: Translate, fmt?: Formatter): string => {
  const value = fmt !== undefined && DATE_FILTERS.has(query.filter) ? fmt.date(query.value) : query.value;
  return t('query.echo', { label: filterLabel(query, t), value: escapeHtml(shorten(value, MAX_ECHO_LENGTH)) });
};
