import { DATE_FILTERS, isPageSize, PAGE_SIZES, type Paging, type Query, type Resource } from '../query.ts';

// How a query becomes a portal request: the resource's path and the URL parameters.

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
