import type { Logger } from 'pino';
import type { PortalClient } from '../client.ts';
import { PortalError } from '../errors.ts';
import type { Paging, Query } from '../../query.ts';

export type PortalEndpoint = keyof PortalClient;
export type PortalCall = { endpoint: PortalEndpoint; query: Query; paging: Paging };

export type PortalEvent = {
  type: 'call' | 'retry' | 'tokenReload' | 'cacheHit' | 'cacheMiss' | 'coalesced' | 'circuitOpen' | 'circuitHalfOpen' | 'circuitClose' | 'circuitReject';
  endpoint: PortalEndpoint;
  /** 'ok', or the code of the error that led to the event. */
  outcome?: string;
  ms?: number;
};

/** Called synchronously on the call path: it must be cheap and must not throw. */
export type OnEvent = (event: PortalEvent) => void;

export type ResilienceLogger = Pick<Logger, 'warn' | 'info'>;

export const outcomeOf = (error: unknown): string => (error instanceof PortalError ? error.code : 'error');

type Around = <T>(call: PortalCall, send: (target: PortalClient) => Promise<T>) => Promise<T>;

/** A PortalClient whose every method goes through `around`, which decides which client sends it. */
export const intercept = (around: Around): PortalClient => ({
  listOrders: (query, paging) => around({ endpoint: 'listOrders', query, paging }, (target) => target.listOrders(query, paging)),
  listSpecifications: (query, paging) =>
    around({ endpoint: 'listSpecifications', query, paging }, (target) => target.listSpecifications(query, paging)),
});

/** One event per call that reaches `client`, with its outcome and duration: the portal's own health. */
export const withObserver = (client: PortalClient, onEvent: OnEvent, now: () => number = Date.now): PortalClient =>
  intercept(async (call, send) => {
    const started = now();
    try {
      const result = await send(client);
      onEvent({ type: 'call', endpoint: call.endpoint, outcome: 'ok', ms: now() - started });
      return result;
    } catch (error) {
      onEvent({ type: 'call', endpoint: call.endpoint, outcome: outcomeOf(error), ms: now() - started });
      throw error;
    }
  });
