// What can be asked of the portal, as data: a resource, one filter, its value, and the paging.

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

export const RESOURCE_PATHS: Record<Resource, string> = {
  order: '/api/lk/order',
  specification: '/api/lk/specification',
};

/**
 * The one place that decides how a date filter is written for the portal. The spec does not
 * give the format; its timestamps are "YYYY-MM-DD HH:MM:SS", so the date part of that form is
 * sent: "2026-03-15".
 */
export const toPortalDate = (isoDate: string): string => isoDate;

/**
 * Query parameters for one portal call. The user's text is only ever a value: URLSearchParams
 * encodes `&`, `=`, `#` and brackets, so it cannot add or change parameters.
 */
export const buildSearchParams = (query: Query, paging: Paging): URLSearchParams => {
  if (!isPageSize(paging.limit)) throw new RangeError(`limit must be one of ${PAGE_SIZES.join(', ')}`);
  if (!Number.isSafeInteger(paging.offset) || paging.offset < 0) throw new RangeError('offset must be a whole number ≥ 0');
  const value = DATE_FILTERS.has(query.filter) ? toPortalDate(query.value) : query.value;
  return new URLSearchParams([
    [query.filter, value],
    ['limit', String(paging.limit)],
    ['offset', String(paging.offset)],
  ]);
};
