import { Composer, Context, Telegram, TelegramError, type Middleware, type MiddlewareFn, type MiddlewareObj, type Telegraf } from 'telegraf';
import type { ApiMethods, Opts, Update as CurrentUpdate } from '@grammyjs/types';
import type { Convenience } from 'telegraf/types';

// Telegraf is touched only in this folder: here its values and types, in bot.ts the bot itself.
// eslint.config.js keeps `telegraf` and its subpaths out of every other module, and
// docs/architecture.md ("Telegraf, fenced") says what it still does for us. In short: Telegraf
// builds each update's Context (its getters and reply helpers), runs the one middleware the bot
// gives it, and names the Bot API's shapes (typegram 7.1). Everything else is ours: the HTTP
// client, polling, the webhook, the middleware chain.

export { Context, Telegram, TelegramError };
export type { Middleware, MiddlewareFn, MiddlewareObj, Telegraf };

// The Bot API's shapes as Telegraf's Context knows them (typegram 7.1), in one place: switching
// them to @grammyjs/types (newer methods are typed from it already) is a change of this line.
export type { BotCommand, CallbackQuery, Chat, InlineQuery, Message, Update, User, UserFromGetMe } from 'telegraf/types';
// What the bot draws, as the Bot API has it now (styled, copy and disabled buttons; rich results):
// sent through callBotApi, never through Telegraf's helpers, which know typegram 7.1's.
export type { InlineKeyboardButton, InlineQueryResult, InlineQueryResultArticle } from '@grammyjs/types';

/** An update type for `allowed_updates`, as the Bot API has them now (guest_message is newer than Telegraf's typegram). */
export type UpdateType = Exclude<keyof CurrentUpdate, 'update_id'>;

/** The list as Telegraf's getUpdates and setWebhook type it (typegram 7.1): the same strings, which the server reads. */
export const telegrafUpdateTypes = (types: readonly UpdateType[] | undefined): Convenience.UpdateType[] | undefined =>
  types as Convenience.UpdateType[] | undefined;

/** What every Bot API call goes through: Telegraf's signature, our client behind it. */
export type CallApi = Telegram['callApi'];

type CallSignal = NonNullable<Parameters<CallApi>[2]>['signal'];

/** The standard AbortSignal as Telegraf's `callApi` types it (node-fetch's); the same object at run time. */
export const callSignal = (signal: AbortSignal): CallSignal => signal as unknown as CallSignal;

/** A Bot API method's parameters and result as the Bot API has them now (@grammyjs/types, types only). */
export type BotApiParams<M extends keyof ApiMethods<never>> = Opts<never>[M];
export type BotApiResult<M extends keyof ApiMethods<never>> = ReturnType<ApiMethods<never>[M]>;

/**
 * A call our code builds itself (a notification), typed from @grammyjs/types rather than
 * Telegraf's typegram 7.1; it goes through the same `callApi`, our client.
 */
export const callBotApi = <M extends keyof ApiMethods<never>>(telegram: Pick<Telegram, 'callApi'>, method: M, payload: BotApiParams<M>): Promise<BotApiResult<M>> =>
  (telegram.callApi as unknown as (method: M, payload: BotApiParams<M>) => Promise<BotApiResult<M>>)(method, payload);

/**
 * As callBotApi, for a call whose result nobody reads (a view sent or edited): our client then
 * skips decoding Telegram's copy of the message when the answer says ok (src/telegram/bot-api-client.ts).
 */
export const callBotApiForEffect = <M extends keyof ApiMethods<never>>(telegram: Pick<Telegram, 'callApi'>, method: M, payload: BotApiParams<M>): Promise<unknown> =>
  (telegram.callApi as unknown as (method: M, payload: BotApiParams<M>, options: { resultUnused: true }) => Promise<unknown>)(method, payload, { resultUnused: true });

/** A middleware function of a function or a middleware object (`{ middleware() }`), as Telegraf takes them. */
export const unwrapMiddleware = <C extends Context>(layer: Middleware<C>): MiddlewareFn<C> => Composer.unwrap(layer);
