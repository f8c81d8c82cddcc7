import type { Logger } from 'pino';
import type { MiddlewareFn } from '../../telegram/telegraf/core.ts';
import { isCommandForMe } from '../filters/addressed.ts';
import type { BotContext } from '../context.ts';
import { replyOptions } from '../reply.ts';
import { andThen, type Awaitable, type LimitStore } from '../../store/store.ts';
import { createStoreTrouble } from './store-trouble.ts';

export type FloodOptions = { perMinute: number; limits: LimitStore; logger: Logger; now?: () => number };

const WINDOW_MS = 60_000;

/** Commands to this bot, button presses and inline queries: what can reach the portal. */
const isQuery = (ctx: BotContext): boolean => Boolean(ctx.callbackQuery || ctx.inlineQuery || isCommandForMe(ctx));

/**
 * A user sending more than `perMinute` queries in a minute (each identifier of a pasted text is
 * one: `ctx.takeQueries`) is told once to slow down; the rest of
 * that minute's queries get no answer and no portal call (a button press is still answered, so
 * the client stops its spinner). The count is in the store, so replicas share it: a user gets
 * the limit once, not once per replica. A store that does not answer lets every query through:
 * a limit must not make a down database a down bot.
 */
export const floodLimit = ({ perMinute, limits, logger, now = Date.now }: FloodOptions): MiddlewareFn<BotContext> => {
  const storeTrouble = createStoreTrouble(logger, 'the flood limit cannot reach the store: queries pass unlimited until it does', now);
  /** The user's hits in their window with `count` more, or undefined when the store does not answer. */
  const hit = (userId: number, count: number): Awaitable<number | undefined> => {
    const failed = (error: unknown): undefined => {
      if (!storeTrouble(error)) throw error;
      return undefined;
    };
    try {
      // At once from the window in memory (sqlite); a promise from PostgreSQL.
      const hits = limits.hit(userId, now(), WINDOW_MS, count);
      return hits instanceof Promise ? hits.catch(failed) : hits;
    } catch (error) {
      return failed(error);
    }
  };
  /** Past the limit: exactly one hit is the first past it, whichever replica counted it. */
  const refuse = async (ctx: BotContext, hits: number): Promise<void> => {
    const warn = hits === perMinute + 1;
    const text = ctx.t('errors.slowDown');
    if (ctx.callbackQuery) {
      await ctx.answerOnce(warn ? text : undefined, warn);
    } else if (ctx.inlineQuery) {
      await ctx.answerInlineQuery([], { cache_time: 0, is_personal: true });
    } else if (warn) {
      await ctx.reply(text, replyOptions(ctx));
    }
  };
  // Not async: every update passes here, and the window answers at once.
  return (ctx, next) => {
    const userId = ctx.from?.id;
    ctx.takeQueries = async (count, { quiet = false } = {}) => {
      if (userId === undefined || count <= 0) return Math.max(0, count);
      const hits = await hit(userId, count);
      if (hits === undefined) return count;
      const allowed = Math.min(count, Math.max(0, perMinute - (hits - count)));
      // Exactly one update crosses the limit, whichever replica counted it; when some of its
      // queries still go on, its answer says the rest were not looked up.
      if (allowed === 0 && hits - count <= perMinute && !quiet) await ctx.reply(ctx.t('errors.slowDown'), replyOptions(ctx));
      return allowed;
    };
    if (userId === undefined || !isQuery(ctx)) return next();
    return andThen(hit(userId, 1), (hits) => (hits === undefined || hits <= perMinute ? next() : refuse(ctx, hits)));
  };
};
