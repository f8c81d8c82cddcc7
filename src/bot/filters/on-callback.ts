import type { MiddlewareFn } from '../../telegram/telegraf/core.ts';
import { unpackCallback, type CallbackAction } from '../callback-data/codec.ts';
import type { BotContext } from '../context.ts';

type ActionOf<T extends CallbackAction['type']> = Extract<CallbackAction, { type: T }>;

/** Each press is decoded once, however many handlers look at it. */
const decoded = new WeakMap<object, CallbackAction | undefined>();

/** The action of a button press, or undefined for any other update and for a forged button. */
const callbackAction = (ctx: BotContext): CallbackAction | undefined => {
  const query = ctx.callbackQuery;
  if (!query || !('data' in query)) return undefined;
  if (!decoded.has(query)) decoded.set(query, unpackCallback(query.data));
  return decoded.get(query);
};

/** Middleware that runs `handler` for button presses carrying one action type of the codec. */
export const onCallback =
  <T extends CallbackAction['type']>(
    type: T,
    handler: (ctx: BotContext, action: ActionOf<T>) => Promise<unknown>,
  ): MiddlewareFn<BotContext> =>
  // Not async: every update passes every button's layer, and most only hand it on.
  (ctx, next) => {
    const action = callbackAction(ctx);
    if (action?.type !== type) return next();
    return handler(ctx, action as ActionOf<T>).then(() => undefined);
  };
