import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import { z } from 'zod';
import { envelopeSchema, orderSchema, pageSchema, specificationSchema, type Order, type Specification } from './schemas.ts';
import {
  PortalBodyTooLargeError,
  PortalError,
  PortalHttpError,
  PortalNetworkError,
  PortalNotJsonError,
  PortalRejectedError,
  PortalSchemaError,
  PortalTimeoutError,
} from './errors.ts';
import { announcedLength, createByteBudget, readCapped, type ByteBudget } from './read-body.ts';
import type { OrderQuery, Paging, SpecificationQuery } from '../query.ts';
import { buildSearchParams, RESOURCE_PATHS } from './search-params.ts';

export type Page<T> = { items: T[]; total: number; limit: number; offset: number };

export type PortalClient = {
  listOrders(query: OrderQuery, paging: Paging): Promise<Page<Order>>;
  listSpecifications(query: SpecificationQuery, paging: Paging): Promise<Page<Specification>>;
};

export type PortalClientOptions = {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** The largest answer read; past it the call fails as unreadable data. */
  maxBodyBytes?: number;
  /** The bytes of answers read at once, across calls (shared by the clients of one portal); default BODIES_IN_FLIGHT_BYTES. */
  bodyBudget?: ByteBudget;
  /** Where a portal that breaks the spec without failing the call (too many records) is reported. */
  logger?: Pick<Logger, 'warn'>;
  /** The connections to use (openPortal's, closed with it); a client of its own when not given. */
  dispatcher?: Dispatcher;
};

/** As PORTAL_MAX_BODY_BYTES: ten times a page of 20 records with 60 positions each. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/**
 * All answers being read at once, together: each is capped by maxBodyBytes, but CONCURRENCY calls
 * could each bring one. 32 MiB is 80 real pages read at the same moment, and a small share of the heap.
 */
export const BODIES_IN_FLIGHT_BYTES = 32 * 1024 * 1024;
/** The budget for the clients of one portal, room for at least one answer at the cap. */
export const bodyBudgetFor = (maxBodyBytes: number = DEFAULT_MAX_BODY_BYTES): ByteBudget =>
  createByteBudget(Math.max(BODIES_IN_FLIGHT_BYTES, maxBodyBytes));
/** Of an error answer only the start is read, for the log. */
const ERROR_BODY_BYTES = 4 * 1024;

const orderPage = pageSchema(orderSchema);
const specificationPage = pageSchema(specificationSchema);

const toPage = <T>(data: { result: T[]; total: number; limit: number; offset: number }): Page<T> => ({
  items: data.result,
  total: data.total,
  limit: data.limit,
  offset: data.offset,
});

/**
 * The bytes of the answer each page was parsed from, for the cache's bound: beside the pages
 * rather than on them, so they stay the plain records views and exports read.
 */
const answerBytes = new WeakMap<object, number>();
export const answerBytesOf = (page: object): number | undefined => answerBytes.get(page);

const measured = <T extends object>(page: T, bytes: number): T => {
  answerBytes.set(page, bytes);
  return page;
};

/** Just enough of a page to count its records before they are validated. */
const resultListSchema = z.looseObject({ result: z.array(z.unknown()) });

const isTimeout = (error: unknown): boolean =>
  error instanceof Error &&
  ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'].includes((error as { code?: string }).code ?? '');

export const createPortalClient = (options: PortalClientOptions): PortalClient => {
  const agent = options.dispatcher ?? new Agent();
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const budget = options.bodyBudget ?? bodyBudgetFor(maxBodyBytes);

  const readText = async (path: string, params: URLSearchParams): Promise<{ text: string; bytes: number }> => {
    const url = new URL(path.replace(/^\//, ''), base);
    url.search = params.toString();
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { accept: 'application/json', authorization: `Bearer ${options.token}` },
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      if (response.statusCode < 200 || response.statusCode >= 300) {
        // The body may still hold an envelope with an error_code: read its start for the log, never trust it.
        const start = await readCapped(response.body, ERROR_BODY_BYTES).catch(() => ({ text: '' }));
        throw new PortalHttpError(response.statusCode, start.text);
      }
      const announced = announcedLength(response.headers);
      if (announced !== undefined && announced > maxBodyBytes) {
        response.body.destroy();
        throw new PortalBodyTooLargeError(maxBodyBytes, announced);
      }
      const body = await readCapped(response.body, maxBodyBytes, budget);
      if (body.overBudget) throw new PortalBodyTooLargeError(maxBodyBytes, undefined, 'answers being read at once');
      if (body.truncated) throw new PortalBodyTooLargeError(maxBodyBytes);
      return body;
    } catch (error) {
      if (error instanceof PortalError) throw error;
      if (signal.aborted || isTimeout(error)) throw new PortalTimeoutError(options.timeoutMs);
      throw new PortalNetworkError(`portal request failed: ${(error as Error).message}`, { cause: error });
    }
  };

  /** The spec says a page holds at most `limit` records; the rest of a longer one is dropped here. */
  const withinLimit = (data: unknown, path: string, limit: number): unknown => {
    const page = resultListSchema.safeParse(data);
    if (!page.success || page.data.result.length <= limit) return data;
    options.logger?.warn({ path, received: page.data.result.length, limit }, 'portal sent more records than asked; the rest are ignored');
    return { ...page.data, result: page.data.result.slice(0, limit) };
  };

  const get = async <S extends z.ZodType>(path: string, params: URLSearchParams, limit: number, schema: S): Promise<{ data: z.infer<S>; bytes: number }> => {
    const { text, bytes } = await readText(path, params);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      // The body itself is not logged: it may hold anything, records included.
      throw new PortalNotJsonError(`portal answered with something that is not JSON (${text.length} characters)`, { cause: error });
    }
    const envelope = envelopeSchema.safeParse(body);
    if (!envelope.success) throw new PortalSchemaError('portal answer is not the documented envelope', { cause: envelope.error });
    if (!envelope.data.success) throw new PortalRejectedError(envelope.data.error_code);
    const data = schema.safeParse(withinLimit(envelope.data.data, path, limit));
    if (!data.success) throw new PortalSchemaError('portal records do not match the spec', { cause: data.error });
    return { data: data.data, bytes };
  };

  return {
    listOrders: async (query, paging) => {
      const answer = await get(RESOURCE_PATHS.order, buildSearchParams(query, paging), paging.limit, orderPage);
      return measured(toPage(answer.data), answer.bytes);
    },
    listSpecifications: async (query, paging) => {
      const answer = await get(RESOURCE_PATHS.specification, buildSearchParams(query, paging), paging.limit, specificationPage);
      return measured(toPage(answer.data), answer.bytes);
    },
  };
};

/** A page of records paired with the query that found them: `resource` tells their type. */
export type Results = { paging: Paging } & (
  | { resource: 'order'; query: OrderQuery; page: Page<Order> }
  | { resource: 'specification'; query: SpecificationQuery; page: Page<Specification> }
);

/** Records with the query that found them, the resource telling their type. */
export type ResourceRecords =
  | { resource: 'order'; query: OrderQuery; items: readonly Order[] }
  | { resource: 'specification'; query: SpecificationQuery; items: readonly Specification[] };

/**
 * One call for either resource, keeping the query and its records paired by type, and the
 * paging as asked (what the buttons page by, whatever the portal echoes).
 */
export const fetchResults = async (portal: PortalClient, query: OrderQuery | SpecificationQuery, paging: Paging): Promise<Results> =>
  query.resource === 'order'
    ? { resource: 'order', query, paging, page: await portal.listOrders(query, paging) }
    : { resource: 'specification', query, paging, page: await portal.listSpecifications(query, paging) };
