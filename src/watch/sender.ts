import type { Logger } from 'pino';
import { TelegramError } from 'telegraf';
import type { InlineKeyboardButton } from 'telegraf/types';
import { backoffDelay } from '../backoff.ts';
import type { Notification, WatchStore } from '../store/watch-store.ts';
import { changeSetSchema, readStored, type ChangeSet } from './changes.ts';
import { isQuiet, type QuietHours } from './quiet-hours.ts';
import { createSendLimits } from './send-limits.ts';

/** A rendered notification: the message text (HTML) and its buttons. */
export type NotificationView = { text: string; keyboard: InlineKeyboardButton[][] };

export type SenderEvents = {
  /** outcome: sent, retry, paused, dropped. */
  outcome(outcome: 'sent' | 'retry' | 'paused' | 'dropped'): void;
  /** Seconds from the poll that found the change to Telegram accepting its message. */
  delivered(seconds: number): void;
};

export type SenderOptions = {
  store: WatchStore;
  /** Sends one message; rejects with Telegram's error (a TelegramError when Telegram answered). */
  sendMessage(payload: Record<string, unknown>): Promise<unknown>;
  render(changes: ChangeSet, notification: Notification): NotificationView;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  owner: string;
  leaseMs: number;
  /** Notifications claimed at a time. */
  batch: number;
  quietHours: QuietHours | undefined;
  timeZone: string;
  now?: () => number;
  events?: SenderEvents;
};

const RETRY = { baseMs: 1_000, maxMs: 5 * 60_000 };

const described = (error: TelegramError, pattern: RegExp) => pattern.test(error.description ?? '');

/** The chat is gone for the bot: blocked, removed from the group, deleted. */
const isChatGone = (error: unknown): boolean =>
  error instanceof TelegramError &&
  (error.code === 403 || (error.code === 400 && described(error, /chat not found|bot was kicked|group chat was deactivated|have no rights to send/i)));

/** The forum topic the watch was made in was deleted: the group itself still hears it. */
const isTopicGone = (error: unknown): boolean => error instanceof TelegramError && error.code === 400 && described(error, /thread not found|topic.*(closed|deleted)/i);


/**
 * Sends the pending notifications, claimed from the store with a lease, within Telegram's limits
 * (30 a second in all, 1 a second per chat, 20 a minute per group): one that must wait is put
 * back until it may go, never dropped. A 429 waits its retry_after; a blocked or removed chat
 * pauses its watches (its next message to the bot resumes them); a failure on the way is retried
 * with backoff. A notification is forgotten only once Telegram accepted it, so a crash between
 * sending and recording may repeat that one message, and a graceful stop repeats nothing.
 */
export const createSender = ({ store, sendMessage, render, logger, owner, leaseMs, batch, quietHours, timeZone, now = Date.now, events }: SenderOptions) => {
  const limits = createSendLimits();
  let sweptAt = 0;

  const deliver = async (notification: Notification): Promise<void> => {
    const changes = readStored(changeSetSchema, notification.changes);
    if (changes === undefined) {
      logger.error({ notificationId: notification.id, chatId: notification.chatId }, 'a pending notification cannot be read: dropped');
      events?.outcome('dropped');
      await store.delivered(notification.id);
      return;
    }
    const at = now();
    const wait = limits.wait(notification.chatId, at);
    if (wait > 0) {
      await store.retryLater(notification.id, at + wait);
      return;
    }
    const view = render(changes, notification);
    const payload = {
      chat_id: notification.chatId,
      text: view.text,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      reply_markup: { inline_keyboard: view.keyboard },
      ...(isQuiet(at, quietHours, timeZone) && { disable_notification: true }),
    };
    limits.sent(notification.chatId, at);
    try {
      try {
        await sendMessage({ ...payload, ...(notification.threadId !== undefined && { message_thread_id: notification.threadId }) });
      } catch (error) {
        if (notification.threadId === undefined || !isTopicGone(error)) throw error;
        await sendMessage(payload);
      }
    } catch (error) {
      await failed(notification, error);
      return;
    }
    await store.delivered(notification.id);
    events?.outcome('sent');
    events?.delivered(Math.max(0, (now() - changes.foundAt) / 1000));
    logger.info(
      { audit: true, chatId: notification.chatId, watchId: notification.watchId, records: changes.changes.length },
      'notification sent',
    );
  };

  const failed = async (notification: Notification, error: unknown) => {
    const log = { err: error, chatId: notification.chatId, watchId: notification.watchId, notificationId: notification.id };
    if (error instanceof TelegramError && error.code === 429) {
      const seconds = Math.max(1, error.parameters?.retry_after ?? 5);
      logger.warn({ ...log, retryAfter: seconds }, 'telegram asked to slow down: the notification waits');
      events?.outcome('retry');
      await store.retryLater(notification.id, now() + seconds * 1000);
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

  return {
    /** Sends what is due now, one after another; resolves with how many were claimed. */
    async tick(): Promise<number> {
      const at = now();
      if (at - sweptAt > 60_000) {
        limits.sweep(at);
        sweptAt = at;
      }
      const due = await store.claimNotifications(owner, at, leaseMs, batch);
      for (const notification of due) await deliver(notification);
      return due.length;
    },
  };
};

export type Sender = ReturnType<typeof createSender>;
