import type { Logger } from 'pino';
import { Telegraf } from 'telegraf';
import { createBotApiClient } from '../bot-api-client.ts';
import { retryingRateLimits } from '../retry-after.ts';
import { Telegram, type Context } from './core.ts';

// The bot: `new Telegraf`, and why nothing else of Telegraf's bot is used (createTelegraf).

/**
 * Every Bot API call of `bot` through one client of ours (src/telegram/bot-api-client.ts): the
 * bot's own `telegram` (start-up, polling) as it is, and the `telegram` of every update's context
 * through the 429 retry. Telegraf copies `bot.context` onto each update's context, so one Telegram
 * object serves them all, in place of the one it makes per update.
 */
export const installBotApiClient = <C extends Context>(bot: Telegraf<C>, options: { apiRoot: string; token: string; logger?: Logger; onRateLimited?: (method: string) => void }) => {
  const client = createBotApiClient(options);
  bot.telegram.callApi = client.callApi;
  const updates = new Telegram(options.token, bot.telegram.options);
  updates.callApi = retryingRateLimits(client.callApi, options.logger === undefined ? {} : { logger: options.logger });
  Object.assign(bot.context, { telegram: updates });
  return client;
};

/**
 * A Telegraf bot used for two things only: `bot.use(one middleware)` and `bot.handleUpdate(update)`,
 * which builds the update's Context and runs that middleware. So there is no `bot.command`,
 * `bot.action` or `bot.launch()` anywhere:
 * - commands, button presses and inline queries are matched by our chain (src/bot/feature.ts:
 *   createFeature's `command` and `on`, src/bot/filters/on-callback.ts for the callback codec);
 * - updates come from our polling runner (src/telegram/polling-runner.ts) or webhook
 *   (src/telegram/webhook.ts, src/app/http-server.ts), which call `handleUpdate` in chat order;
 * - calls leave through our undici client, installed here over `bot.telegram.callApi` and `bot.context`;
 * - no Telegraf timeout (`handlerTimeout: Infinity`): it would free the chat's turn while the
 *   handler goes on; the runner's deadline (HANDLER_DEADLINE_SECONDS) cancels a handler's calls instead.
 */
export const createTelegraf = <C extends Context>(
  token: string,
  { apiRoot, logger, onRateLimited }: { apiRoot: string; logger?: Logger; /** Told of each 429 (a metric). */ onRateLimited?: (method: string) => void },
): Telegraf<C> => {
  const bot = new Telegraf<C>(token, { telegram: { apiRoot }, handlerTimeout: Infinity });
  installBotApiClient(bot, { apiRoot, token, ...(logger ? { logger } : {}), ...(onRateLimited ? { onRateLimited } : {}) });
  return bot;
};
