import type { MiddlewareFn } from 'telegraf';
import { isCommandForMe } from '../filters/addressed.ts';
import type { BotContext } from '../context.ts';
import { replyOptions } from '../reply.ts';

export type FloodOptions = { perMinute: number; now?: () => number };

const WINDOW_MS = 60_000;
/** Past this many users remembered, windows that have ended are swept away. */
const SWEEP_AT = 10_000;

type Window = { startedAt: number; count: number; warned: boolean };

/** Commands to this bot, button presses and inline queries: what can reach the portal. */
const isQuery = (ctx: BotContext): boolean => Boolean(ctx.callbackQuery || ctx.inlineQuery || isCommandForMe(ctx));

/**
 * A user sending more than `perMinute` queries in a minute is told once to slow down; the rest of
 * that minute's queries get no answer and no portal call (a button press is still answered, so
 * the client stops its spinner).
 */
export const floodLimit = ({ perMinute, now = Date.now }: FloodOptions): MiddlewareFn<BotContext> => {
  const windows = new Map<number, Window>();
  return async (ctx, next) => {
    const userId = ctx.from?.id;
    if (userId === undefined || !isQuery(ctx)) return next();
    const at = now();
    if (windows.size > SWEEP_AT) {
      for (const [id, window] of windows) if (at - window.startedAt >= WINDOW_MS) windows.delete(id);
    }
    let window = windows.get(userId);
    if (!window || at - window.startedAt >= WINDOW_MS) {
      window = { startedAt: at, count: 0, warned: false };
      windows.set(userId, window);
    }
    window.count += 1;
    if (window.count <= perMinute) return next();
    const warn = !window.warned;
    window.warned = true;
    const text = ctx.t('errors.slowDown');
    if (ctx.callbackQuery) {
      await ctx.answerOnce(warn ? text : undefined, warn);
    } else if (ctx.inlineQuery) {
      await ctx.answerInlineQuery([], { cache_time: 0, is_personal: true });
    } else if (warn) {
      await ctx.reply(text, replyOptions(ctx));
    }
  };
};
