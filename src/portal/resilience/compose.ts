import type { PortalClient } from '../client.ts';
import { withCache, type CacheOptions, type CacheStats } from './cache.ts';
import { withCircuitBreaker, type CircuitBreakerOptions, type CircuitState } from './circuit-breaker.ts';
import { withObserver, type OnEvent, type ResilienceLogger } from './intercept.ts';
import { withRetry, type RetryOptions } from './retry.ts';

type Shared = 'logger' | 'onEvent' | 'now';

export type ComposePortalOptions = {
  /** The client that sends requests: createPortalClientWithTokens(...) or createPortalClient(...). */
  base: PortalClient;
  logger?: ResilienceLogger;
  onEvent?: OnEvent;
  now?: () => number;
  retry?: Omit<RetryOptions, Shared>;
  breaker?: Omit<CircuitBreakerOptions, Shared>;
  cache?: Omit<CacheOptions, Shared>;
};

export type ResilientPortal = PortalClient & {
  /** Skips cached pages, for Refresh. */
  fresh: PortalClient;
  /** Uses cached pages but keeps none of its own, for reading every page of a query (an export); its `fresh` skips them too. */
  bulk: PortalClient & { fresh: PortalClient };
  state(): CircuitState;
  lastSuccessAt(): number | undefined;
  stats(): CacheStats;
  /** Stops the cache's sweep of expired pages. */
  close(): void;
};

/**
 * cache (and coalescing) → circuit breaker → retry → observer → base (token rotation inside).
 * Cache first, so hits and joined calls never count against the portal; the breaker outside
 * retry, so one user call is one failure and an open circuit also stops retries; retry above
 * the token layer, so a 401 is answered by a token reload and never by a blind retry.
 */
export const composePortal = ({ base, logger, onEvent, now = Date.now, retry, breaker, cache }: ComposePortalOptions): ResilientPortal => {
  const observed = onEvent ? withObserver(base, onEvent, now) : base;
  const retried = withRetry(observed, { ...retry, logger, onEvent });
  const guarded = withCircuitBreaker(retried, { ...breaker, logger, onEvent, now });
  const cached = withCache(guarded, { ...cache, onEvent, now });
  return {
    listOrders: cached.listOrders,
    listSpecifications: cached.listSpecifications,
    fresh: cached.fresh,
    bulk: cached.bulk,
    stats: cached.stats,
    close: cached.close,
    state: guarded.state,
    lastSuccessAt: guarded.lastSuccessAt,
  };
};
