import { isPageSize } from '../query.ts';

// Reading a request target and its paging parameters without ever throwing: malformed
// percent-encoding is left as text by URLSearchParams, absurd numbers are refused by pattern.

export const DEFAULT_LIMIT = 10;

export type Paging = { limit: number; offset: number };
export type PagingError = 'INVALID_LIMIT' | 'INVALID_OFFSET';

/** "/api/lk/order/?a=1" → path "/api/lk/order" and its decoded parameters. */
export const splitTarget = (url: string | undefined): { path: string; params: URLSearchParams } => {
  // An absolute-form target ("http://host/path") is legal HTTP; only its path matters here.
  const target = (url ?? '/').replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, '').split('#')[0] ?? '';
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  const query = queryStart === -1 ? '' : target.slice(queryStart + 1);
  return { path: path.length > 1 ? path.replace(/\/+$/, '') : path, params: new URLSearchParams(query) };
};

/** The first occurrence of a parameter, trimmed; absent and blank both read as undefined. */
export const param = (params: URLSearchParams, name: string): string | undefined => params.get(name)?.trim() || undefined;

export const parsePaging = (params: URLSearchParams): { paging: Paging } | { error: PagingError } => {
  const limit = param(params, 'limit');
  const offset = param(params, 'offset');
  if (limit !== undefined && !(/^\d{1,3}$/.test(limit) && isPageSize(Number(limit)))) return { error: 'INVALID_LIMIT' };
  // Fifteen digits keep the offset a safe integer.
  if (offset !== undefined && !/^\d{1,15}$/.test(offset)) return { error: 'INVALID_OFFSET' };
  return { paging: { limit: limit === undefined ? DEFAULT_LIMIT : Number(limit), offset: Number(offset ?? 0) } };
};
