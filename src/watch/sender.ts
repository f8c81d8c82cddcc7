import type { Logger } from 'pino';
import { TelegramError, type BotApiParams } from '../telegram/telegraf/core.ts';
import { backoffDelay } from '../backoff.ts';
import type { Locale } from '../i18n.ts';
import type { Awaitable } from '../store/store.ts';
import type { Notification, WatchStore } from '../store/watch-store.ts';

type ChangeNotification = Extract<Notification, { kind: 'change' }>;
import type { View } from '../telegram/view.ts';
import { changeSetSchema, readStored, type ChangeSet } from './changes.ts';
import { readMessage } from './prepared-message.ts';
import { isQuiet, type QuietHours } from './quiet-hours.ts';
import { isChatGone, isTopicGone, migratedTo } from './send-failures.ts';
import { createSendLimits } from './send-limits.ts';


export type SenderEvents = {
  /** outcome: sent, retry, paused, dropped. */
  outcome(outcome: 'sent' | 'retry' | 'paused' | 'dropped'): void;
  /** Seconds from the poll that found the change to Telegram accepting its message. */
  delivered(seconds: number): void;
};

export type SenderOptions = {
  store: WatchStore;
  /** Sends one message; rejects with Telegram's error (a TelegramError when Telegram answered). */
  sendMessage(payload: BotApiParams<'sendMessage'>): Promise<unknown>;
  /** The message for a watch's changes, in `locale` (the one `localeOf` chose), its times in `timeZone`. */
  render(changes: ChangeSet, notification: ChangeNotification, locale: Locale, timeZone: string): View;
  /** The language to speak, chosen at send time (the chat's as it is now); default: the notification's own. */
  localeOf?: (notification: ChangeNotification) => Awaitable<Locale>;
  /** The chat's time zone now (for its times and its quiet hours); default: `timeZone`. */
  zoneOf?: (chatId: number) => Awaitable<string>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Whether the chat may still have watches: one that may not gets nothing, and its watches go. */
  isAllowed?: (chatId: number) => boolean;
  owner: string;
  /** How long a claim holds unless renewed: it is renewed every quarter of it while its notifications are sent. */
  leaseMs: number;
  /** Notifications claimed at a time. */
  batch: number;
  /** Notifications claimed in one tick, at most (default 30: Telegram's limit for a second). */
  perTick?: number;
  /** Hours when changes are sent without sound, in each chat's time zone; a digest the chat asked for keeps its sound. */
  quietHours: QuietHours | undefined;
  /** TIME_ZONE: a chat's zone unless it chose one. */
  timeZone: string;
  now?: () => number;
  events?: SenderEvents;
};

const RETRY = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * Sends the pending notifications, claimed from the store with a lease, within Telegram's limits
 * (30 a second in all, 1 a second per chat, 20 a minute per group): one that must wait is put
 * back until it may go, never dropped. A 429 holds back every message of the bot (Telegram's
 * flood control is per bot) until its retry_after is over; a blocked or removed chat pauses its
 * watches (its next message to the bot resumes them); a group that became a supergroup has its
 * watches moved to the new id; a failure on the way is retried with backoff. A notification is
 * forgotten only once Telegram accepted it, so a crash between sending and recording may repeat
 * that one message, and a graceful stop repeats nothing. One notification that cannot be
 * rendered is dropped, and a store failure for one leaves it to its lease: neither stops the batch.
 * A few are claimed at a time, their lease renewed while they are sent: after a crash the next
 * process finds them free within one short lease. A chat that may no longer have watches gets
 * nothing: its watches and notifications go.
 */
export const createSender = ({
  store,
  sendMessage,
  render,
  localeOf = (notification) => notification.locale,
  zoneOf = () => timeZone,
  logger,
  isAllowed = () => true,
  owner,
  leaseMs,
  batch,
  perTick = 30,
  quietHours,
  timeZone,
  now = Date.now,
  events,
}: SenderOptions) => {
  const limits = createSendLimits();
  let sweptAt = 0;
  /** Nothing is sent before this time: the end of the last 429's retry_after. */
  let holdUntil = 0;

  const ids = (notification: Notification) => ({
    notificationId: notification.id,
    chatId: notification.chatId,
    ...(notification.kind === 'change' ? { watchId: notification.watchId } : { digest: true }),
  });

  /** Sends to the notification's topic, or to its chat when the topic is gone; silently when `quiet`. */
  const send = async (notification: Notification, view: View, quiet: boolean): Promise<void> => {
    const at = now();
    const payload: BotApiParams<'sendMessage'> = {
      chat_id: notification.chatId,
      text: view.text,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      reply_markup: { inline_keyboard: view.keyboard },
      ...(quiet && { disable_notification: true }),
    };
    limits.sent(notification.chatId, at);
    try {
      await sendMessage({ ...payload, ...(notification.threadId !== undefined && { message_thread_id: notification.threadId }) });
    } catch (error) {
      if (notification.threadId === undefined || !isTopicGone(error)) throw error;
      await sendMessage(payload);
    }
  };

  /** Moves the chat's watches to its new id; the notification, moved too, to send there at once. */
  const moved = async (notification: Notification, toChatId: number): Promise<Notification> => {
    await store.moveChat(notification.chatId, toChatId);
    logger.info({ chatId: notification.chatId, migratedTo: toChatId }, 'group became a supergroup: its watches moved to the new chat');
    const { threadId: _, ...unthreaded } = notification;
    return { ...unthreaded, chatId: toChatId };
  };

  /** The message to send and whether it goes silently; undefined (dropped, logged) when it cannot be read or rendered. */
  const prepare = async (claimed: Notification, at: number): Promise<{ view: View; quiet: boolean; changes?: ChangeSet } | undefined> => {
    if (claimed.kind === 'digest') {
      const view = readMessage(claimed.message);
      if (view === undefined) logger.error(ids(claimed), 'a prepared digest cannot be read: dropped');
      return view && { view, quiet: false };
    }
    const changes = readStored(changeSetSchema, claimed.changes);
    if (changes === undefined) {
      logger.error(ids(claimed), 'a pending notification cannot be read: dropped');
      return undefined;
    }
    const zone = await zoneOf(claimed.chatId);
    try {
      return { view: render(changes, claimed, await localeOf(claimed), zone), quiet: isQuiet(at, quietHours, zone), changes };
    } catch (error) {
      // Ids only: the error may quote the records.
      logger.error({ ...ids(claimed), errorType: error instanceof Error ? error.name : typeof error }, 'a notification cannot be rendered: dropped');
      return undefined;
    }
  };

  const deliver = async (claimed: Notification): Promise<void> => {
    if (!isAllowed(claimed.chatId)) {
      await store.removeChat(claimed.chatId);
      logger.info({ audit: true, ...ids(claimed) }, 'watches removed: the chat may no longer use the bot');
      events?.outcome('dropped');
      return;
    }
    const at = now();
    const wait = limits.wait(claimed.chatId, at);
    if (wait > 0) {
      await store.postpone(claimed.id, at + wait);
      return;
    }
    const message = await prepare(claimed, at);
    if (message === undefined) {
      events?.outcome('dropped');
      await store.delivered(claimed.id);
      return;
    }
    let notification = claimed;
    try {
      try {
        await send(notification, message.view, message.quiet);
      } catch (error) {
        const toChatId = migratedTo(error);
        if (toChatId === undefined) throw error;
        notification = await moved(notification, toChatId);
        await send(notification, message.view, message.quiet);
      }
    } catch (error) {
      await failed(notification, error);
      return;
    }
    await store.delivered(notification.id);
    events?.outcome('sent');
    if (message.changes) {
      events?.delivered(Math.max(0, (now() - message.changes.foundAt) / 1000));
      logger.info({ audit: true, chatId: notification.chatId, watchId: notification.kind === 'change' ? notification.watchId : undefined, records: message.changes.changes.length }, 'notification sent');
    } else logger.info({ audit: true, chatId: notification.chatId }, 'digest message sent');
  };

  const failed = async (notification: Notification, error: unknown) => {
    const log = { err: error, ...ids(notification) };
    if (error instanceof TelegramError && error.code === 429) {
      const seconds = Math.max(1, error.parameters?.retry_after ?? 5);
      holdUntil = Math.max(holdUntil, now() + seconds * 1000);
      logger.warn({ ...log, retryAfter: seconds }, 'telegram asked to slow down: nothing is sent until the wait is over');
      events?.outcome('retry');
      await store.retryLater(notification.id, holdUntil);
    } else if (isChatGone(error)) {
      logger.info(log, 'chat unreachable: its watches are paused until it writes again');
      events?.outcome('paused');
      await store.pauseChat(notification.chatId, now());
    } else if (error instanceof TelegramError && error.code < 500) {
      logger.error(log, 'Telegram refused a notification: dropped');
      events?.outcome('dropped');
      await store.delivered(notification.id);
    } else {
      logger.warn(log, 'a notification could not be sent: it is retried');
      events?.outcome('retry');
      await store.retryLater(notification.id, now() + Math.round(backoffDelay(notification.attempts, RETRY)));
    }
  };

  /**
   * Renews, every quarter lease, the lease of the claimed notifications not handled yet; one that
   * another process took meanwhile (this one stalled past its lease) is put in `lost`.
   */
  const keepLeased = (held: Set<number>, lost: Set<number>) => {
    let renewing = false;
    const renew = () => {
      if (renewing || held.size === 0) return;
      renewing = true;
      const asked = [...held];
      Promise.resolve()
        .then(() => store.renewNotifications(owner, asked, now() + leaseMs))
        .then(
          (kept) => {
            const still = new Set(kept);
            for (const id of asked) if (!still.has(id)) lost.add(id);
          },
          (error: unknown) => logger.warn({ err: error }, 'the lease of the notifications being sent could not be renewed'),
        )
        .finally(() => (renewing = false));
    };
    const timer = setInterval(renew, leaseMs / 4);
    return { stop: () => clearInterval(timer) };
  };

  /** The claimed notifications, one after another, held while they wait their turn. */
  const handle = async (due: Notification[]): Promise<void> => {
    const held = new Set(due.map((notification) => notification.id));
    const lost = new Set<number>();
    const lease = keepLeased(held, lost);
    try {
      for (const notification of due) {
        try {
          if (lost.has(notification.id)) logger.warn(ids(notification), 'a notification was held past its lease: left to the process that took it');
          // A 429 for one holds back the rest of the batch: they go back, no attempt counted.
          else if (now() < holdUntil) await store.postpone(notification.id, holdUntil);
          else await deliver(notification);
        } catch (error) {
          // The store failed for this one: it stays leased and is tried again when the lease expires.
          logger.error({ err: error, ...ids(notification) }, 'a notification could not be handled: the next one goes on');
        } finally {
          held.delete(notification.id);
        }
      }
    } finally {
      lease.stop();
    }
  };

  return {
    /**
     * Sends what is due now, one after another, claiming `batch` at a time up to `perTick`;
     * resolves with how many were claimed (none while a 429 holds).
     */
    async tick(): Promise<number> {
      const at = now();
      if (at < holdUntil) return 0;
      if (at - sweptAt > 60_000) {
        limits.sweep(at);
        sweptAt = at;
      }
      let claimed = 0;
      while (claimed < perTick && now() >= holdUntil) {
        const asked = Math.min(batch, perTick - claimed);
        const due = await store.claimNotifications(owner, now(), leaseMs, asked);
        claimed += due.length;
        await handle(due);
        if (due.length < asked) break;
      }
      return claimed;
    },
  };
};

export type Sender = ReturnType<typeof createSender>;
