import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { Agent } from 'undici';
import { composePortal } from '../portal/resilience/compose.ts';
import type { PortalEvent } from '../portal/resilience/intercept.ts';
import { createPortalClientWithTokens } from '../portal/resilience/token-rotation.ts';
import { createTokenSource } from '../portal/resilience/token-source.ts';
import { CIRCUIT_STATES, type BotMetrics } from '../metrics/bot-metrics.ts';
import type { Usage } from '../store/usage.ts';

/** Portal answers older than this, with no newer one, make /readyz say "not ready". */
const READY_WITHIN_MS = 5 * 60_000;

const recordEvent = (metrics: BotMetrics, usage: Pick<Usage, 'portalCall' | 'circuitOpened'> | undefined) => (event: PortalEvent) => {
  if (event.type === 'call') {
    metrics.portalRequests.inc({ endpoint: event.endpoint, outcome: event.outcome ?? 'ok' });
    if (event.ms !== undefined) metrics.portalDuration.observe({ endpoint: event.endpoint }, event.ms / 1000);
    usage?.portalCall(event.ms ?? 0, event.outcome ?? 'ok');
  } else if (event.type === 'cacheHit' || event.type === 'coalesced') metrics.portalCacheHits.inc({});
  else if (event.type === 'cacheMiss') metrics.portalCacheMisses.inc({});
  else if (event.type === 'circuitOpen') {
    metrics.circuitState.set({}, CIRCUIT_STATES.open);
    metrics.circuitOpened.inc({});
    usage?.circuitOpened();
  } else if (event.type === 'circuitHalfOpen') metrics.circuitState.set({}, CIRCUIT_STATES['half-open']);
  else if (event.type === 'circuitClose') metrics.circuitState.set({}, CIRCUIT_STATES.closed);
};

/**
 * The portal the bot asks: the configured one, or the embedded demo portal on loopback, behind
 * cache and coalescing, a circuit breaker, one retry, and token rotation from PORTAL_TOKEN_FILE.
 */
export type OpenPortalOptions = {
  /** The breaker's and the cache's clock (tests); Date.now by default. */
  now?: () => number;
  /** /stats's counters: each call's outcome and time, the breaker opening. */
  usage?: Pick<Usage, 'portalCall' | 'circuitOpened'>;
};

export const openPortal = async (config: Config['portal'], logger: Logger, metrics: BotMetrics, { now, usage }: OpenPortalOptions = {}) => {
  const demoToken = randomBytes(16).toString('hex');
  // The demo portal and its sample data are loaded only when no PORTAL_URL is set.
  const demo = config.kind === 'demo' ? await (await import('../demo/portal-server.ts')).startDemoPortal({ token: demoToken }) : undefined;
  // One set of connections for every client (a rotated token makes a new one), closed with the portal.
  const agent = new Agent();
  const tokens =
    config.kind === 'remote' ? createTokenSource({ token: config.token, tokenFile: config.tokenFile }) : createTokenSource({ token: demoToken });
  const base = createPortalClientWithTokens({
    baseUrl: demo?.url ?? (config.kind === 'remote' ? config.url : ''),
    timeoutMs: config.timeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    tokens,
    logger,
    dispatcher: agent,
  });
  const portal = composePortal({
    base,
    logger,
    onEvent: recordEvent(metrics, usage),
    cache: { ttlMs: config.cacheTtlMs, maxBytes: config.cacheMaxBytes },
    breaker: config.circuit,
    ...(now ? { now } : {}),
  });
  return {
    portal,
    demo,
    /** The secrets the log must never show. */
    token: () => tokens.current(),
    /** Ready: the circuit is not open, and the portal answered within the last minutes. */
    readiness: (now = Date.now()) => {
      const last = portal.lastSuccessAt();
      const circuit = portal.state();
      const recent = last !== undefined && now - last < READY_WITHIN_MS;
      return { ready: circuit !== 'open' && recent, detail: { circuit, lastPortalSuccess: last ? new Date(last).toISOString() : null } };
    },
    /** Keeps "answered recently" true on a quiet day: one cheap lookup when nothing else asked. */
    probe: async () => {
      const last = portal.lastSuccessAt();
      if (last !== undefined && Date.now() - last < READY_WITHIN_MS / 2) return;
      await portal.fresh.listOrders({ resource: 'order', filter: 'SAP_ID', value: '0' }, { limit: 5, offset: 0 }).catch(() => undefined);
    },
    /** Stops the cache's timer, closes the connections and the demo portal. */
    close: async () => {
      portal.close();
      await agent.close();
      await demo?.close();
    },
  };
};
