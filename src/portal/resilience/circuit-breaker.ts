import type { PortalClient } from '../client.ts';
import { isTransient } from '../errors.ts';
import { PortalCircuitOpenError } from './errors.ts';
import { intercept, outcomeOf, type OnEvent, type PortalEndpoint, type ResilienceLogger } from './intercept.ts';

export type CircuitState = 'closed' | 'open' | 'half-open';

export type CircuitBreakerOptions = {
  failureThreshold?: number;
  openMs?: number;
  now?: () => number;
  logger?: ResilienceLogger;
  onEvent?: OnEvent;
};

export type CircuitBreakerClient = PortalClient & {
  /** 'half-open' once the open period is over: the next call is the trial. */
  state(): CircuitState;
  /** When a call last succeeded (ms since the epoch, from `now`), or undefined. */
  lastSuccessAt(): number | undefined;
};

export const withCircuitBreaker = (
  client: PortalClient,
  { failureThreshold = 5, openMs = 30_000, now = Date.now, logger, onEvent }: CircuitBreakerOptions = {},
): CircuitBreakerClient => {
  let failures = 0;
  let openedAt: number | undefined;
  let trialInFlight = false;
  let lastSuccess: number | undefined;

  const state = (): CircuitState => {
    if (openedAt === undefined) return 'closed';
    return trialInFlight || now() - openedAt >= openMs ? 'half-open' : 'open';
  };

  const open = (endpoint: PortalEndpoint, error: unknown) => {
    openedAt = now();
    logger?.warn({ err: error, endpoint, failures, openMs }, 'portal circuit open');
    onEvent?.({ type: 'circuitOpen', endpoint, outcome: outcomeOf(error) });
  };

  const close = (endpoint: PortalEndpoint) => {
    if (openedAt !== undefined) {
      logger?.info({ endpoint }, 'portal circuit closed');
      onEvent?.({ type: 'circuitClose', endpoint });
    }
    openedAt = undefined;
    failures = 0;
  };

  const wrapped = intercept(async (call, send) => {
    const current = state();
    if (current === 'open' || (current === 'half-open' && trialInFlight)) {
      onEvent?.({ type: 'circuitReject', endpoint: call.endpoint });
      throw new PortalCircuitOpenError(Math.max(0, (openedAt ?? 0) + openMs - now()));
    }
    const trial = current === 'half-open';
    if (trial) {
      trialInFlight = true;
      onEvent?.({ type: 'circuitHalfOpen', endpoint: call.endpoint });
    }
    try {
      const result = await send(client);
      lastSuccess = now();
      close(call.endpoint);
      return result;
    } catch (error) {
      // A transient failure means the portal is down; any other proves it answered.
      if (!isTransient(error)) close(call.endpoint);
      // A late failure of a call sent before the circuit opened does not extend the open period.
      else if (trial || (openedAt === undefined && ++failures >= failureThreshold)) open(call.endpoint, error);
      throw error;
    } finally {
      if (trial) trialInFlight = false;
    }
  });

  return { ...wrapped, state, lastSuccessAt: () => lastSuccess };
};
