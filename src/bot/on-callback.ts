import type { MiddlewareFn } from 'telegraf';
import { unpackCallback, type CallbackAction } from './callback-data.ts';
import type { BotContext } from './context.ts';

type ActionOf<T extends CallbackAction['type']> = Extract<CallbackAction, { type: T }>;

/** Middleware that runs `handler` for button presses carrying one action type of the codec. */
export const onCallback =
  <T extends CallbackAction['type']>(
    type: T,
    handler: (ctx: BotContext, action: ActionOf<T>) => Promise<unknown>,
  ): MiddlewareFn<BotContext> =>
  async (ctx, next) => {
    const query = ctx.callbackQuery;
    const action = query && 'data' in query ? unpackCallback(query.data) : undefined;
    if (action?.type !== type) return next();
    await handler(ctx, action as ActionOf<T>);
  };
