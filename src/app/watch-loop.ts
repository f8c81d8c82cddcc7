import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { pause } from '../backoff.ts';
import { callBotApi, type Telegram } from '../telegram/telegraf/core.ts';
import type { Access } from '../access.ts';
import type { ServerFeatures } from '../telegram/capabilities.ts';
import { fitHtml, withFittedKeyboard } from '../telegram/fit.ts';
import { renderNotification } from '../bot/views/notification.ts';
import { renderDigest } from '../bot/views/digest.ts';
import type { Config } from '../config.ts';
import { createWatchMemory, type MemoryBudget } from '../memory-budget.ts';
import { createFormatter } from '../format.ts';
import { createTranslator, perLocale, type Locale } from '../i18n.ts';
import type { BotMetrics } from '../metrics/bot-metrics.ts';
import type { PortalClient } from '../portal/client.ts';
import type { SettingsStore } from '../store/store.ts';
import type { WatchStore } from '../store/watch-store.ts';
import { createPoller } from '../watch/poller.ts';
import { createSender } from '../watch/sender.ts';
import { createDigester } from '../watch/digests.ts';
import { storeMessage } from '../watch/prepared-message.ts';
import { createSnoozes } from '../watch/snoozes.ts';
import { isGroupChat } from '../watch/send-limits.ts';
import { repeat } from './repeat.ts';
import type { Usage } from '../store/usage.ts';

/** Watched queries polled at once: two of the portal's connections at most, so user lookups come first. */
export const WATCH_POLL_CONCURRENCY = 2;
/** How often due polls and pending notifications are looked for (a poll that ends claims the next at once). */
const TICK_MS = 1_000;
/** How often the watch gauges are brought up to date. */
const GAUGES_MS = 15_000;
/**
 * A notification's claim: a few seconds, renewed while it waits and is sent, so that after a crash
 * the next process sends it within seconds; a few at a time, so that one slow send holds few.
 */
const SEND_LEASE_MS = 5_000;
const SEND_BATCH = 5;
/** A digest's claim: preparing one is a few reads and writes in one transaction. */
const DIGEST_LEASE_MS = 60_000;

/**
 * A poll's claim outlasts the longest poll: every page of WATCH_MAX_RECORDS, each within
 * PORTAL_TIMEOUT_MS and one retry, and a minute to spare. A poll that still outlives it cannot
 * record (its claim token is stale) and is redone.
 */
export const pollLeaseMs = (maxRecords: number, portalTimeoutMs: number): number =>
  (Math.ceil(maxRecords / 20) + 1) * (2 * portalTimeoutMs + 500) + 60_000;

export type WatchLoopOptions = {
  config: Pick<Config, 'watch' | 'timeZone'> & { portal: { timeoutMs: number } };
  /** Who may keep watches now: the environment's lists and the admins' grants. */
  access: Pick<Access, 'mayWatchIn'>;
  store: WatchStore;
  /** A chat's language and time zone, read when its notification is sent (they may have changed since the watch). */
  settings: Pick<SettingsStore, 'chatLocale' | 'user' | 'chatTimeZone'>;
  /** The portal past its cache. */
  portal: PortalClient;
  telegram: Pick<Telegram, 'callApi'>;
  /** What the Bot API server can do: a notification is fitted to it as the bot's answers are (src/telegram/fit.ts). */
  features: ServerFeatures;
  logger: Logger;
  metrics?: BotMetrics;
  now?: () => number;
  /** What a poll's records may take of the heap, shared with /watch; made from config.watch when not given. */
  memory?: MemoryBudget;
  /** /stats counts the notifications sent. */
  usage?: Pick<Usage, 'notification'>;
  /** Issue 32: live guest cards, refreshed at the watch pace (src/app/guest-cards.ts). */
  guestCards?: { tick(): Promise<void> };
};


/**
 * The watches of this process: every second, the due watched queries are claimed and polled, and
 * the pending notifications are sent. Stopping waits for the tick and the polls under way.
 */
export const startWatchLoop = ({ config, access, store, settings, portal, telegram, features, logger, metrics, now = Date.now, memory = createWatchMemory(config.watch.memoryBytes), usage, guestCards }: WatchLoopOptions) => {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const translators = perLocale(createTranslator);
  /**
   * The chat's language as it is now: a private chat's user's, a group's own, else (a group
   * without one) the language of whoever set the watch or the digest up; else `fallback`, the
   * language they spoke then.
   */
  const localeOf = async (chatId: number, createdBy: number, fallback: Locale): Promise<Locale> => {
    if (!isGroupChat(chatId)) return (await settings.user(chatId)).locale ?? fallback;
    return (await settings.chatLocale(chatId)) ?? (await settings.user(createdBy)).locale ?? fallback;
  };
  const zoneOf = async (chatId: number): Promise<string> => (await settings.chatTimeZone(chatId)) ?? config.timeZone;
  const poller = createPoller({
    store,
    portal,
    logger,
    owner,
    intervalMs: config.watch.intervalMs,
    maxRecords: config.watch.maxRecords,
    concurrency: WATCH_POLL_CONCURRENCY,
    leaseMs: pollLeaseMs(config.watch.maxRecords, config.portal.timeoutMs),
    onSlotFree: () => polls.run(),
    memory,
    // Notifications speak to the whole chat: a group's own place on the list decides, not who made the watch.
    isAllowed: (watch) => access.mayWatchIn(watch.chatId),
    now,
    events: {
      polled: (outcome: string) => metrics?.watchPolls.inc({ outcome }),
      changed: (records: number) => {
        metrics?.watchChanges.inc({}, records);
        sends.run();
      },
    },
  });
  // What changes say is read in the chat's time zone and language as they are when it is sent.
  const sender = createSender({
    store,
    sendMessage: ({ reply_markup: markup, ...payload }) =>
      withFittedKeyboard(markup && 'inline_keyboard' in markup ? markup.inline_keyboard : [], features, (keyboard) =>
        callBotApi(telegram, 'sendMessage', { ...payload, text: fitHtml(payload.text, features), ...(keyboard.length > 0 && { reply_markup: { inline_keyboard: keyboard } }) }),
      ),
    // When the poll found the change: a time in each reader's zone (a date_time entity).
    render: (changes, notification, locale, timeZone) =>
      renderNotification(changes, notification.target, notification.watchId, translators[locale], createFormatter(locale, timeZone), new Date(changes.foundAt), notification),
    localeOf: (notification) => localeOf(notification.chatId, notification.createdBy, notification.locale),
    zoneOf,
    logger,
    isAllowed: (chatId) => access.mayWatchIn(chatId),
    owner,
    leaseMs: SEND_LEASE_MS,
    batch: SEND_BATCH,
    quietHours: config.watch.quietHours,
    timeZone: config.timeZone,
    now,
    ...((metrics || usage) && {
      events: {
        outcome: (outcome: 'sent' | 'retry' | 'paused' | 'dropped') => {
          metrics?.notifications.inc({ outcome });
          usage?.notification(outcome);
        },
        delivered: (seconds: number) => metrics?.notificationDelay.observe({}, seconds),
      },
    }),
  });

  const digester = createDigester({
    store,
    owner,
    leaseMs: DIGEST_LEASE_MS,
    now,
    zoneOf,
    localeOf: (digest) => localeOf(digest.chatId, digest.createdBy, digest.locale),
    render: (content, locale, timeZone, at) => renderDigest(content, translators[locale], createFormatter(locale, timeZone), new Date(at)).map(storeMessage),
    logger,
    onPrepared: () => sends.run(),
    onOutcome: (outcome) => metrics?.digests.inc({ outcome }),
  });
  const snoozes = createSnoozes({ store, now, logger });

  const gauges = async () => {
    if (!metrics) return;
    const counts = await store.counts();
    metrics.watches.set({}, counts.watches);
    metrics.watchedTargets.set({}, counts.targets);
    metrics.pendingNotifications.set({}, counts.pending);
  };
  // Polling and sending each go at their own pace: a long batch of sends never holds polls up.
  const polls = repeat(() => poller.tick(), TICK_MS, logger);
  const sends = repeat(() => sender.tick(), TICK_MS, logger);
  // Digests and snoozes that end: each queues its messages, which the sends then take.
  const digests = repeat(() => digester.tick(), TICK_MS, logger);
  const wakes = repeat(async () => (await snoozes.tick()) > 0 && sends.run(), TICK_MS, logger);
  const metering = repeat(gauges, GAUGES_MS, logger);
  const cards = repeat(() => guestCards?.tick() ?? Promise.resolve(), TICK_MS, logger);

  return {
    /** One round now (tests): polls what is due, waits for them, sends what is pending. */
    async runOnce(): Promise<void> {
      await Promise.all([digests.settled(), wakes.settled()]);
      await snoozes.tick();
      await digester.tick();
      await poller.tick();
      await poller.settled();
      // A change found asks the loop for a round of sends at once: this one comes after it.
      await sends.settled();
      await sender.tick();
      await gauges();
      await guestCards?.tick();
    },
    /**
     * No new round; waits for those under way and, within `graceMs`, for polls in flight. A poll
     * cut off records nothing: its claim runs out and the next poll (here or elsewhere) redoes it.
     */
    async stop(graceMs = 5_000): Promise<void> {
      const deadline = new AbortController();
      await Promise.race([
        Promise.all([polls.stop(), sends.stop(), digests.stop(), wakes.stop(), metering.stop(), cards.stop()]).then(() => poller.settled()),
        pause(graceMs, deadline.signal),
      ]);
      deadline.abort();
    },
  };
};

export type WatchLoop = ReturnType<typeof startWatchLoop>;
