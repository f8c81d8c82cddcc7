import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { pause } from '../backoff.ts';
import type { Telegram } from 'telegraf';
import { isAllowedUser, type AccessOptions } from '../bot/middleware/access.ts';
import { renderNotification } from '../bot/views/notification.ts';
import type { Config } from '../config.ts';
import { createFormatter } from '../format.ts';
import { createTranslator, LOCALES, type Locale } from '../i18n.ts';
import type { BotMetrics } from '../metrics/bot-metrics.ts';
import type { PortalClient } from '../portal/client.ts';
import type { WatchStore } from '../store/watch-store.ts';
import { createPoller } from '../watch/poller.ts';
import { createSender } from '../watch/sender.ts';

/** Watched queries polled at once: two of the portal's connections at most, so user lookups come first. */
export const WATCH_POLL_CONCURRENCY = 2;
/** How often due polls and pending notifications are looked for. */
const TICK_MS = 1_000;
/** A claim outlasts any poll (five pages within PORTAL_TIMEOUT_MS each, and a retry) or send. */
const LEASE_MS = 5 * 60_000;
const SEND_BATCH = 30;

export type WatchesOptions = {
  config: Pick<Config, 'watch' | 'timeZone'> & { access: AccessOptions };
  store: WatchStore;
  /** The portal past its cache. */
  portal: PortalClient;
  telegram: Pick<Telegram, 'callApi'>;
  logger: Logger;
  metrics?: BotMetrics;
  now?: () => number;
};

const perLocale = <T>(make: (locale: Locale) => T) => Object.fromEntries(LOCALES.map((locale) => [locale, make(locale)])) as Record<Locale, T>;

/**
 * The watches of this process: every second, the due watched queries are claimed and polled, and
 * the pending notifications are sent. Stopping waits for the tick and the polls under way.
 */
export const startWatches = ({ config, store, portal, telegram, logger, metrics, now = Date.now }: WatchesOptions) => {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const translators = perLocale(createTranslator);
  const formatters = perLocale((locale) => createFormatter(locale, config.timeZone));
  const poller = createPoller({
    store,
    portal,
    logger,
    owner,
    intervalMs: config.watch.intervalMs,
    maxRecords: config.watch.maxRecords,
    concurrency: WATCH_POLL_CONCURRENCY,
    leaseMs: LEASE_MS,
    isAllowed: (watch) => isAllowedUser(config.access, watch.createdBy, watch.chatId),
    now,
    ...(metrics && {
      events: { polled: (outcome: string) => metrics.watchPolls.inc({ outcome }), changed: (records: number) => metrics.watchChanges.inc({}, records) },
    }),
  });
  const sender = createSender({
    store,
    sendMessage: (payload) => (telegram.callApi as (method: string, payload: object) => Promise<unknown>)('sendMessage', payload),
    render: (changes, notification) =>
      renderNotification(changes, notification.target, notification.watchId, translators[notification.locale], formatters[notification.locale]),
    logger,
    owner,
    leaseMs: LEASE_MS,
    batch: SEND_BATCH,
    quietHours: config.watch.quietHours,
    timeZone: config.timeZone,
    now,
    ...(metrics && {
      events: {
        outcome: (outcome: 'sent' | 'retry' | 'paused' | 'dropped') => metrics.notifications.inc({ outcome }),
        delivered: (seconds: number) => metrics.notificationDelay.observe({}, seconds),
      },
    }),
  });

  const tick = async () => {
    await poller.tick();
    await sender.tick();
    if (metrics) {
      const counts = await store.counts();
      metrics.watches.set({}, counts.watches);
      metrics.watchedTargets.set({}, counts.targets);
      metrics.pendingNotifications.set({}, counts.pending);
    }
  };

  let current: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    // A tick still running (a slow store, many notifications) is not joined by another.
    if (current !== undefined || stopped) return;
    current = tick()
      // The store or Telegram failed for this tick: the next one tries again.
      .catch((error: unknown) => logger.error({ err: error }, 'watches: a tick failed'))
      .finally(() => (current = undefined));
  }, TICK_MS);

  return {
    /** One tick now (tests); resolves when its polls are recorded and its notifications sent. */
    async runOnce(): Promise<void> {
      await tick();
      await poller.settled();
      await sender.tick();
    },
    /**
     * No new tick; waits for the one under way and, up to `graceMs`, for polls in flight. A poll cut
     * off records nothing: its lease runs out and the next poll (here or in another process) redoes it.
     */
    async stop(graceMs = 5_000): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await current;
      await Promise.race([poller.settled(), pause(graceMs)]);
    },
  };
};

export type Watches = ReturnType<typeof startWatches>;
