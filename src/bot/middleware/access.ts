import type { Logger } from 'pino';
import type { MiddlewareFn } from '../../telegram/telegraf/core.ts';
import { isAddressedToMe } from '../filters/addressed.ts';
import type { BotContext } from '../context.ts';
import { renderAccessDenied } from '../views/notices.ts';
import { renderRefusal } from '../views/access.ts';
import { replyView } from '../reply.ts';
import type { LimitStore } from '../../store/store.ts';
import { createStoreTrouble } from './store-trouble.ts';
import type { Access } from '../../access.ts';
import { unpackCallback } from '../callback-data/codec.ts';
import type { AccessRequests } from '../access-requests.ts';
import { guestMessageOf } from '../guest-message.ts';

/** A refused user hears it once per group in this time, however many commands they send. */
export const REFUSAL_QUIET_MS = 5 * 60_000;
/**
 * In their private chat, once in this time: a stranger who asks twice is told twice, but cannot
 * make the bot spend its sending quota on refusals.
 */
export const PRIVATE_REFUSAL_QUIET_MS = 30_000;

export type AccessDeps = {
  limits: LimitStore;
  logger: Logger;
  now?: () => number;
  /** Where a stranger's press of Request access goes; without it the button is refused like any other. */
  requests?: Pick<AccessRequests, 'open'>;
  /** Told of every allowed user who acts (and the chat): /stats's active users, /users's last seen. */
  seen?: (userId: number, chatId: number | undefined) => void;
};

const isAccessRequest = (ctx: BotContext): boolean => {
  const query = ctx.callbackQuery;
  return query !== undefined && 'data' in query && unpackCallback(query.data)?.type === 'requestAccess';
};

/**
 * The one refusal. Lets through an allowed user (or admin), or anyone in an allowed chat, as
 * `access` says now (the environment's lists and the admins' grants). Others are told their id: on
 * each button press (an alert, only they see it), and on a message meant for this bot (a command,
 * a pasted text in its private chat, a mention or a reply in a group) once per group in
 * REFUSAL_QUIET_MS (in their private chat, PRIVATE_REFUSAL_QUIET_MS), with a Request access
 * button, so a stranger cannot make the bot spam a group. Their press of that button is the one
 * thing of theirs that goes on (to the admins). Group chatter the bot reads for /autolookup is
 * never answered. The quiet periods are in the store, so replicas share them; while the store does
 * not answer, strangers hear nothing (silence is safe, a spammed group is not). Anything else is
 * ignored.
 * Inline queries and guest messages pass on to their features, which answer with a refusal of their own; the
 * bot's own membership changes pass on to the group onboarding, which speaks to any group.
 */
export const accessMiddleware = (access: Access, { limits, logger, now = Date.now, requests, seen }: AccessDeps): MiddlewareFn<BotContext> => {
  const storeTrouble = createStoreTrouble(logger, 'the refusal cooldown cannot reach the store: strangers are not told until it does', now);
  /** True when the stranger may be told now (and starts the quiet period). */
  const mayRefuse = async (chat: BotContext['chat'], userId: number): Promise<boolean> => {
    const quietMs = chat?.type === 'private' ? PRIVATE_REFUSAL_QUIET_MS : REFUSAL_QUIET_MS;
    try {
      return await limits.take(`refusal:${chat?.id ?? ''}:${userId}`, now(), quietMs);
    } catch (error) {
      if (!storeTrouble(error)) throw error;
      return false;
    }
  };
  /** A stranger: a press is answered with the refusal, a message to the bot refused now and then. */
  const refuse = async (ctx: BotContext, userId: number): Promise<void> => {
    if (ctx.callbackQuery) {
      if (requests && isAccessRequest(ctx)) return requests.open(ctx);
      await ctx.answerOnce(renderAccessDenied(userId, ctx.chat, ctx.t), true);
      return;
    }
    if (isAddressedToMe(ctx) && (await mayRefuse(ctx.chat, userId))) {
      await replyView(ctx, renderRefusal(userId, ctx.chat, ctx.t));
    }
  };
  // Not async: every update passes here, and an allowed one is handed on at once.
  return (ctx, next) => {
    const userId = ctx.from?.id;
    if (ctx.inlineQuery || ctx.myChatMember || guestMessageOf(ctx)) return next();
    if (userId !== undefined && access.isAllowedUser(userId, ctx.chat?.id)) {
      seen?.(userId, ctx.chat?.id);
      return next();
    }
    if (access.options.anyone) return next();
    if (userId === undefined) return;
    return refuse(ctx, userId);
  };
};
