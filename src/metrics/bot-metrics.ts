import packageJson from '../../package.json' with { type: 'json' };
import { createMetricsRegistry, DURATION_BUCKETS, OVERFLOW_LABEL_VALUE } from './registry.ts';
import type { MetricsRegistry } from './registry.ts';

export type BotMetrics = ReturnType<typeof createBotMetrics>;

/** Every series of the bot's own starts so; the process's (process_*, nodejs_*) are prom-client's standard names. */
export const METRICS_PREFIX = 'orderbot_';
const named = (name: string) => `${METRICS_PREFIX}${name}`;

/** The circuit breaker's states as a number, for a gauge an alert can compare: 0 closed, 1 half-open, 2 open. */
export const CIRCUIT_STATES = { closed: 0, 'half-open': 1, open: 2 } as const;

/**
 * The bot's metrics. Label values must come from closed sets: `type` is a Telegram update type,
 * `endpoint` a portal call (listOrders, listSpecifications; never a URL or query), `outcome`
 * `ok` or the error's fixed code: PORTAL_NETWORK, PORTAL_TIMEOUT, PORTAL_HTTP, PORTAL_REJECTED,
 * PORTAL_NOT_JSON, PORTAL_SCHEMA, PORTAL_TOO_LARGE.
 */
export const createBotMetrics = (registry: MetricsRegistry = createMetricsRegistry()) => {
  const buildInfo = registry.gauge<'version' | 'node'>({ name: named('build_info'), help: 'Always 1: the bot version and the Node.js version it runs on.', labelNames: ['version', 'node'], maxSeries: 1 });
  buildInfo.set({ version: packageJson.version, node: process.version }, 1);
  return {
    registry,
    updates: registry.counter<'type'>({ name: named('updates_total'), help: 'Updates received, by update type.', labelNames: ['type'], maxSeries: 40 }),
    updateDuration: registry.histogram<'type'>({
      name: named('update_duration_seconds'),
      help: 'Time spent handling one update, by update type.',
      labelNames: ['type'],
      buckets: DURATION_BUCKETS,
      maxSeries: 40,
    }),
    portalRequests: registry.counter<'endpoint' | 'outcome'>({
      name: named('portal_requests_total'),
      help: 'Requests to the customer portal, by endpoint and outcome.',
      labelNames: ['endpoint', 'outcome'],
    }),
    portalDuration: registry.histogram<'endpoint'>({
      name: named('portal_request_duration_seconds'),
      help: 'Duration of portal requests, by endpoint.',
      labelNames: ['endpoint'],
      buckets: DURATION_BUCKETS,
      maxSeries: 20,
    }),
    portalCacheHits: registry.counter({ name: named('portal_cache_hits_total'), help: 'Portal lookups answered from the cache.' }),
    portalCacheMisses: registry.counter({ name: named('portal_cache_misses_total'), help: 'Portal lookups the cache could not answer.' }),
    watches: registry.gauge({ name: named('watches'), help: 'Watches of all chats.' }),
    watchedTargets: registry.gauge({ name: named('watched_queries'), help: 'Distinct watched queries (each polled once per interval).' }),
    pendingNotifications: registry.gauge({ name: named('pending_notifications'), help: 'Change notifications recorded and not yet sent.' }),
    watchPolls: registry.counter<'outcome'>({
      name: named('watch_polls_total'),
      help: 'Polls of watched queries, by outcome: ok, the portal error code, or RECORDS_TOO_LARGE (skipped: more than a poll may hold).',
      labelNames: ['outcome'],
      maxSeries: 20,
    }),
    watchChanges: registry.counter({ name: named('watch_changes_total'), help: 'Records found changed (entered, left or changed) by watch polls.' }),
    notifications: registry.counter<'outcome'>({
      name: named('notifications_total'),
      help: 'Change notifications, by outcome: sent, retry (429 or a failure), paused (blocked or gone), dropped.',
      labelNames: ['outcome'],
      maxSeries: 10,
    }),
    // Issue 33: the chats' daily digests.
    digests: registry.counter<'outcome'>({
      name: named('digests_total'),
      help: 'Daily digests, by outcome: prepared (queued to send; none on a quiet day), skipped (more than 6 hours late), failed (tried again in a minute).',
      labelNames: ['outcome'],
      maxSeries: 5,
    }),
    notificationDelay: registry.histogram({
      name: named('notification_delay_seconds'),
      help: 'Time from a poll finding a change to Telegram accepting its message.',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    }),
    exports: registry.counter<'outcome'>({
      name: named('exports_total'),
      help: 'Excel exports finished, by outcome: sent, empty (nothing found), too_large (over what Telegram takes), failed.',
      labelNames: ['outcome'],
      maxSeries: 10,
    }),
    telegramRateLimited: registry.counter<'method'>({
      name: named('telegram_rate_limited_total'),
      help: 'Bot API calls Telegram answered 429 (too many requests), by method.',
      labelNames: ['method'],
      maxSeries: 30,
    }),
    circuitState: registry.gauge({ name: named('portal_circuit_state'), help: "The portal circuit breaker's state: 0 closed, 1 half-open (a trial call), 2 open (calls fail at once)." }),
    circuitOpened: registry.counter({ name: named('portal_circuit_opened_total'), help: 'Times the portal circuit breaker opened.' }),
  };
};

/** The update type of a raw update (its one field besides update_id), for the `type` label. */
export const updateTypeOf = (update: object): string =>
  Object.keys(update).find((key) => key !== 'update_id') ?? OVERFLOW_LABEL_VALUE;
