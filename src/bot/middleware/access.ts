import type { MiddlewareFn } from 'telegraf';
import { isCommandForMe } from '../filters/addressed.ts';
import type { BotContext } from '../context.ts';
import { createCooldown } from './cooldown.ts';
import { renderAccessDenied } from '../views/notices.ts';
import { replyOptions } from '../reply.ts';

export type AccessOptions = { userIds: ReadonlySet<number>; chatIds: ReadonlySet<number>; anyone: boolean };

/** A refused user hears it once per group in this time, however many commands they send. */
export const REFUSAL_QUIET_MS = 5 * 60_000;
/**
 * In their private chat, once in this time: a stranger who asks twice is told twice, but cannot
 * make the bot spend its sending quota on refusals.
 */
export const PRIVATE_REFUSAL_QUIET_MS = 30_000;
/** Users and chats remembered for that; past it the oldest are forgotten (and may hear it again). */
export const REFUSALS_REMEMBERED = 10_000;

/** A user on the list; in inline mode (no chat) only the user list counts. */
export const isAllowedUser = (options: AccessOptions, userId: number, chatId?: number): boolean =>
  options.anyone || options.userIds.has(userId) || (chatId !== undefined && options.chatIds.has(chatId));

/**
 * Lets through a user on the list, or anyone in a chat on the list. Others are told their id: on
 * each button press (an alert, only they see it), and on a command to this bot once per group in
 * REFUSAL_QUIET_MS (in their private chat, PRIVATE_REFUSAL_QUIET_MS), so a stranger cannot make
 * the bot spam a group. Anything else is ignored.
 * Inline queries pass on to the inline feature, which answers them with a refusal of its own.
 */
export const accessMiddleware = (options: AccessOptions, { now = Date.now }: { now?: () => number } = {}): MiddlewareFn<BotContext> => {
  const refusedInGroups = createCooldown({ quietMs: REFUSAL_QUIET_MS, maxKeys: REFUSALS_REMEMBERED, now });
  const refusedInPrivate = createCooldown({ quietMs: PRIVATE_REFUSAL_QUIET_MS, maxKeys: REFUSALS_REMEMBERED, now });
  return async (ctx, next) => {
    const userId = ctx.from?.id;
    if (ctx.inlineQuery) return next();
    if (userId !== undefined && isAllowedUser(options, userId, ctx.chat?.id)) return next();
    if (options.anyone) return next();
    if (userId === undefined) return;
    if (ctx.callbackQuery) {
      await ctx.answerOnce(renderAccessDenied(userId, ctx.chat, ctx.t), true);
      return;
    }
    const refused = ctx.chat?.type === 'private' ? refusedInPrivate : refusedInGroups;
    if (isCommandForMe(ctx) && refused.take(`${ctx.chat?.id ?? ''}:${userId}`)) {
      await ctx.reply(renderAccessDenied(userId, ctx.chat, ctx.t), replyOptions(ctx));
    }
  };
};
