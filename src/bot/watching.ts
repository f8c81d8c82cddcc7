import type { WatchTarget } from '../store/watch-store.ts';
import type { Watcher, Watches } from '../watch/watches.ts';
import type { BotContext } from './context.ts';
import type { WatchState } from './keyboards/watch-button.ts';

// What the watch domain (src/watch/watches.ts) is told of an update: plain values read from it here.

/** The topic of the command, or of the message whose button was pressed. */
const threadOf = (ctx: BotContext): number | undefined => {
  const message = ctx.message ?? ctx.callbackQuery?.message;
  return message && 'message_thread_id' in message ? message.message_thread_id : undefined;
};

/** Only a forum's topics are places of their own; elsewhere a thread id belongs to a reply thread. */
const isForum = (ctx: BotContext): boolean => ctx.chat?.type === 'supergroup' && ctx.chat.is_forum === true;

/** Who asks, in the update's chat `chatId`: its forum topic, the user, the language. */
export const watcherOf = (ctx: BotContext, chatId: number): Watcher => {
  const threadId = threadOf(ctx);
  return {
    chatId,
    ...(threadId !== undefined && isForum(ctx) ? { threadId } : {}),
    ...(ctx.from === undefined ? {} : { userId: ctx.from.id }),
    locale: ctx.locale,
  };
};

/** 🔔 or 🔕 for a message in this chat: the chat's watch of the target, if any; nothing to show without a chat or where watches are not allowed. */
export const watchState = async (watches: Watches, ctx: BotContext, target: WatchTarget): Promise<WatchState | undefined> => {
  const chatId = ctx.chat?.id;
  if (chatId === undefined || !watches.mayWatch(chatId)) return undefined;
  const watch = await watches.find(chatId, target);
  return watch ? { watchId: watch.id } : {};
};
