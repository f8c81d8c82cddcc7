import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { envelopeSchema, orderSchema, pageSchema, specificationSchema, type Order, type Specification } from './schemas.ts';
import {
  PortalHttpError,
  PortalNetworkError,
  PortalRejectedError,
  PortalSchemaError,
  PortalTimeoutError,
} from './errors.ts';
import { buildSearchParams, RESOURCE_PATHS, type OrderQuery, type Paging, type SpecificationQuery } from './query.ts';

export type Page<T> = { items: T[]; total: number; limit: number; offset: number };

export type PortalClient = {
  listOrders(query: OrderQuery, paging: Paging): Promise<Page<Order>>;
  listSpecifications(query: SpecificationQuery, paging: Paging): Promise<Page<Specification>>;
};

export type PortalClientOptions = {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  dispatcher?: Dispatcher;
};

const orderPage = pageSchema(orderSchema);
const specificationPage = pageSchema(specificationSchema);

const toPage = <T>(data: { result: T[]; total: number; limit: number; offset: number }): Page<T> => ({
  items: data.result,
  total: data.total,
  limit: data.limit,
  offset: data.offset,
});

const isTimeout = (error: unknown): boolean =>
  error instanceof Error &&
  ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'].includes((error as { code?: string }).code ?? '');

export const createPortalClient = (options: PortalClientOptions): PortalClient => {
  const base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);

  const get = async <S extends z.ZodType>(path: string, params: URLSearchParams, schema: S): Promise<z.infer<S>> => {
    const url = new URL(path.replace(/^\//, ''), base);
    url.search = params.toString();
    const signal = AbortSignal.timeout(options.timeoutMs);
    let body: unknown;
    try {
      const response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', authorization: `Bearer ${options.token}` },
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
      if (response.statusCode < 200 || response.statusCode >= 300) {
        // The body may still hold an envelope with an error_code: read it for the log, never trust it.
        const text = await response.body.text().catch(() => '');
        throw new PortalHttpError(response.statusCode, text.slice(0, 500));
      }
      const text = await response.body.text();
      try {
        body = JSON.parse(text);
      } catch {
        throw new PortalSchemaError(`portal answered with something that is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
      }
    } catch (error) {
      if (error instanceof PortalHttpError || error instanceof PortalSchemaError) throw error;
      if (signal.aborted || isTimeout(error)) throw new PortalTimeoutError(options.timeoutMs);
      throw new PortalNetworkError(`portal request failed: ${(error as Error).message}`, { cause: error });
    }

    const envelope = envelopeSchema.safeParse(body);
    if (!envelope.success) throw new PortalSchemaError('portal answer is not the documented envelope', { cause: envelope.error });
    if (!envelope.data.success) throw new PortalRejectedError(envelope.data.error_code);
    const data = schema.safeParse(envelope.data.data);
    if (!data.success) throw new PortalSchemaError('portal records do not match the spec', { cause: data.error });
    return data.data;
  };

  return {
    listOrders: async (query, paging) =>
      toPage(await get(RESOURCE_PATHS.order, buildSearchParams(query, paging), orderPage)),
    listSpecifications: async (query, paging) =>
      toPage(await get(RESOURCE_PATHS.specification, buildSearchParams(query, paging), specificationPage)),
  };
};

export type Results = { paging: Paging } & (
  | { query: OrderQuery; page: Page<Order> }
  | { query: SpecificationQuery; page: Page<Specification> }
);

/**
 * One call for either resource, keeping the query and its records paired by type, and the
 * paging as asked (what the buttons page by, whatever the portal echoes).
 */
export const fetchResults = async (portal: PortalClient, query: OrderQuery | SpecificationQuery, paging: Paging): Promise<Results> =>
  query.resource === 'order'
    ? { query, paging, page: await portal.listOrders(query, paging) }
    : { query, paging, page: await portal.listSpecifications(query, paging) };
