import type { Logger } from 'pino';
import type { Update } from '../telegram/telegraf/core.ts';
import type { CoordinationStore } from '../store/store.ts';
import { pause } from '../backoff.ts';

// Order within a chat across webhook replicas. Telegram posts a webhook queue's updates one at a
// time, waiting for each answer (telegram-bot-api's WebhookActor), and the bot answers only when an
// update is handled: so a chat's messages, which Telegram queues by chat, are handled in order
// whichever replica gets them. But a button press is queued by the user who pressed it, apart
// from the chat's messages: a press and a message in one chat, or two members' presses in a
// group, may reach two replicas at once. So with replicas every update of a chat takes a short
// lease on the chat in the shared store first (two round trips), and one process alone keeps its
// order in memory (src/telegram/keyed-queue.ts) at no cost.

/** How long a chat's lease lasts unrenewed: a replica that dies holding it delays the chat this long at most. */
const LEASE_MS = 5_000;
const RENEW_EVERY_MS = 1_500;
const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 250;

/** The chat an update belongs to; none for an inline query. */
export const chatOf = (update: Update): number | undefined => {
  if ('message' in update) return update.message.chat.id;
  if ('callback_query' in update) return update.callback_query.message?.chat.id;
  if ('edited_message' in update) return update.edited_message.chat.id;
  if ('my_chat_member' in update) return update.my_chat_member.chat.id;
  if ('chat_member' in update) return update.chat_member.chat.id;
  return undefined;
};

export type ChatOrderOptions = {
  coordination: Pick<CoordinationStore, 'lease' | 'releaseLease'>;
  /** This replica, as a lease owner. */
  owner: string;
  logger: Logger;
  /** The longest an update waits for its chat: then it is handled anyway (its deadline). */
  waitMs: number;
  now?: () => number;
};

export const createChatOrder = ({ coordination, owner, logger, waitMs, now = Date.now }: ChatOrderOptions) => {
  let warnedAt = -Infinity;
  const warn = (fields: Record<string, unknown>, message: string) => {
    if (now() - warnedAt < 60_000) return;
    warnedAt = now();
    logger.warn(fields, message);
  };
  const take = async (name: string, holder: string): Promise<boolean> => {
    const until = now() + waitMs;
    for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      if (await coordination.lease(name, holder, now(), LEASE_MS)) return true;
      if (now() + wait > until) return false;
      await pause(wait);
    }
  };
  /** Runs `handle` for `update`, after any other replica's update of the same chat that needs ordering. */
  return async <T>(update: Update, handle: () => Promise<T>): Promise<T> => {
    const chatId = chatOf(update);
    if (chatId === undefined) return handle();
    const name = `chat:${chatId}`;
    const holder = `${owner}:${update.update_id}`;
    let held = false;
    try {
      held = await take(name, holder);
      if (!held) warn({ chatId, updateId: update.update_id }, 'handled an update without its chat’s turn: another replica held the chat too long');
    } catch (error) {
      // The store is down: the update is still handled (one process keeps its own order).
      warn({ err: error, chatId }, 'could not take the chat’s turn in the store: handling the update anyway');
    }
    const renew = held ? setInterval(() => void Promise.resolve(coordination.lease(name, holder, now(), LEASE_MS)).catch(() => undefined), RENEW_EVERY_MS) : undefined;
    try {
      return await handle();
    } finally {
      clearInterval(renew);
      if (held) await Promise.resolve(coordination.releaseLease(name, holder)).catch(() => undefined);
    }
  };
};
