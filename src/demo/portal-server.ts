import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from '../http/node-http.ts';
import type { AddressInfo } from 'node:net';
import { sendJson } from '../http/respond.ts';
import { secretMatcher } from '../http/secret.ts';
import { RESOURCE_PATHS } from '../portal/search-params.ts';
import { byDateThenSapId, orderMatchers, specificationMatchers } from './match.ts';
import { demoDataAt, TICK_MS } from './motion.ts';
import { param, parsePaging, splitTarget, type Paging } from './request.ts';
import { sampleData, type DemoData } from './sample-data.ts';

// The embedded demo portal: the two read-only list operations of the spec on sample data.
// Decisions where the spec is silent:
// - Several filters may be given; they combine with AND. Unknown parameters are ignored, the
//   first of repeated parameters wins, values are trimmed and a blank value counts as absent.
// - No filter at all returns every record, paged.
// - SAP_ID, CRM_ID, STATUS, STATUS_TYPE and POSITION[MATERIAL_SAP_ID] match exactly; SAP numbers
//   also match without their leading zeros ("7300100" finds "0007300100").
// - CONTRACT_NUMBER and SPECIFICATION_NUMBER match exactly but case-insensitively.
// - POSITION[MATERIAL_NAME] is a case-insensitive substring of any position's material name;
//   Latin/Cyrillic look-alikes (x/х, K/К, C/С…), × and * for «х», ё/е and ./, are treated alike.
// - DATE_ORDER and ORDER[DATE_ORDER] take "YYYY-MM-DD" (a full "YYYY-MM-DD HH:MM:SS" is accepted)
//   and match the date part; ORDER[DATE_ORDER] matches a specification when any of its related
//   production requests has that date. Any other date format matches nothing.
// - Orders are sorted by DATE_ORDER, specifications by DATE_ACTIVE_FROM, newest first, then by
//   SAP_ID ascending.
// - limit must be 5, 10 or 20 (default 10); offset a whole number ≥ 0 (default 0); an offset past
//   the end gives an empty result with the true total. Otherwise HTTP 400 with error_code
//   INVALID_LIMIT or INVALID_OFFSET.
// - Authorization must be "Bearer <token>" (scheme case-insensitive), else HTTP 401 UNAUTHORIZED.
// - Unknown path: HTTP 404 NOT_FOUND; a method other than GET: HTTP 405 METHOD_NOT_ALLOWED; a
//   trailing slash on the path is tolerated. Every answer is the envelope with data null on error.
// - The data is the given (or sample) data as it stands at the clock's time: a few records move
//   every minute (motion.ts), so that watches have something to report.

type ErrorCode = 'UNAUTHORIZED' | 'INVALID_LIMIT' | 'INVALID_OFFSET' | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'INTERNAL_ERROR';
type Listing = (params: URLSearchParams, paging: Paging) => { result: unknown[]; total: number };

const listing = <R>(
  records: readonly R[],
  matchers: Record<string, (value: string) => (record: R) => boolean>,
  order: (left: R, right: R) => number,
): Listing => {
  const sorted = [...records].sort(order);
  return (params, { limit, offset }) => {
    const active = Object.entries(matchers).flatMap(([name, matcher]) => {
      const value = param(params, name);
      return value === undefined ? [] : [matcher(value)];
    });
    const matching = sorted.filter((record) => active.every((matches) => matches(record)));
    return { result: matching.slice(offset, offset + limit), total: matching.length };
  };
};

const fail = (res: ServerResponse, status: number, errorCode: ErrorCode, headers?: Record<string, string>): void =>
  sendJson(res, status, { success: false, error_code: errorCode, data: null }, headers);

const routesFor = (data: DemoData): Record<string, Listing> => ({
  [RESOURCE_PATHS.order]: listing(data.orders, orderMatchers, byDateThenSapId((order) => order.DATE_ORDER)),
  [RESOURCE_PATHS.specification]: listing(
    data.specifications,
    specificationMatchers,
    byDateThenSapId((specification) => specification.DATE_ACTIVE_FROM),
  ),
});

/** `clock` gives the time the data is served at, in ms since the epoch (Date.now by default). */
export const createDemoPortalHandler = (options: { token: string; data?: DemoData; clock?: () => number }) => {
  if (!options.token) throw new TypeError('the demo portal needs a non-empty token');
  const tokenMatches = secretMatcher(options.token);
  const base = options.data ?? sampleData;
  const clock = options.clock ?? Date.now;
  // The data changes only from one tick to the next: sort once a tick, not once a request.
  let current: { tick: number; routes: Record<string, Listing> } | undefined;
  const routesNow = () => {
    const now = clock();
    const tick = Math.floor(now / TICK_MS);
    if (current?.tick !== tick) current = { tick, routes: routesFor(demoDataAt(base, now)) };
    return current.routes;
  };
  const authorized = (header: string | undefined): boolean => {
    const token = /^bearer +(\S+) *$/i.exec(header ?? '')?.[1];
    return tokenMatches(token);
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    try {
      const { path, params } = splitTarget(req.url);
      const routes = routesNow();
      const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
      if (route === undefined) return fail(res, 404, 'NOT_FOUND');
      if (req.method !== 'GET') return fail(res, 405, 'METHOD_NOT_ALLOWED', { allow: 'GET' });
      if (!authorized(req.headers.authorization)) return fail(res, 401, 'UNAUTHORIZED', { 'www-authenticate': 'Bearer' });
      const parsed = parsePaging(params);
      if ('error' in parsed) return fail(res, 400, parsed.error);
      const { result, total } = route(params, parsed.paging);
      sendJson(res, 200, { success: true, error_code: null, data: { result, total, ...parsed.paging } });
    } catch {
      // Only a bug can land here; the caller still gets the envelope rather than a dropped socket.
      if (res.headersSent) res.destroy();
      else fail(res, 500, 'INTERNAL_ERROR');
    }
  };
};

export const startDemoPortal = async (options: {
  token: string;
  host?: string;
  port?: number;
  data?: DemoData;
  clock?: () => number;
}): Promise<{ url: string; close(): Promise<void> }> => {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(createDemoPortalHandler(options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return {
    url: `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};
