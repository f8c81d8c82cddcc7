import type { MiddlewareFn } from '../../../src/telegram/telegraf/core.ts';
import type { BotContext } from '../../../src/bot/context.ts';
import { createTranslator } from '../../../src/i18n.ts';
import { StoreUnavailableError } from '../../../src/store/errors.ts';
import type { LimitStore } from '../../../src/store/store.ts';
import { captureLogs } from '../../support/logs.ts';
import { createServerFeatures } from '../../../src/telegram/capabilities.ts';

// Updates as the limiters read them, and what the bot said back: enough of Telegraf's context for
// the access and flood middlewares, which only reply, answer presses and call `next`.

export type Chat = { id: number; type: 'private' | 'group' | 'supergroup' };
/** `mention`: the text names the bot (@order_lookup_bot) as its first word, marked as Telegram marks it. */
export type Update = { from: number; chat?: Chat; text?: string; press?: boolean; inline?: boolean; mention?: boolean };

export const BOT_USERNAME = 'order_lookup_bot';
export const BOT_ID = 7_000_000_001;

export const createChats = () => {
  const said: Array<{ chatId: number | undefined; text: string }> = [];
  const answers: Array<{ text: string | undefined; alert: boolean }> = [];
  let inlineAnswers = 0;
  let served = 0;

  const context = ({ from, chat = { id: from, type: 'private' }, text, press = false, inline = false, mention = false }: Update): BotContext => {
    const user = { id: from, is_bot: false, first_name: 'User' };
    const written = mention ? `@${BOT_USERNAME} ${text ?? ''}` : text;
    const entities = mention ? [{ type: 'mention', offset: 0, length: BOT_USERNAME.length + 1 }] : undefined;
    const message = written === undefined ? undefined : { message_id: 1, date: 0, chat, from: user, text: written, ...(entities ? { entities } : {}) };
    const ctx = {
      me: BOT_USERNAME,
      botInfo: { id: BOT_ID, is_bot: true, first_name: 'Order Lookup', username: BOT_USERNAME },
      from: user,
      chat: inline ? undefined : chat,
      message,
      callbackQuery: press ? { id: '1', from: user, chat_instance: '1', data: 'x' } : undefined,
      inlineQuery: inline ? { id: '1', from: user, query: 'q', offset: '' } : undefined,
      t: createTranslator('en'),
      reply: async (replyText: string) => void said.push({ chatId: chat.id, text: replyText }),
      // Answers that go through the Bot API directly (src/bot/reply.ts), as a legacy server gets them.
      features: createServerFeatures({ mode: 'legacy', logger: captureLogs().logger }),
      telegram: {
        callApi: async (method: string, payload: { chat_id?: number; text?: string }) => {
          if (method === 'sendMessage') said.push({ chatId: payload.chat_id, text: payload.text ?? '' });
          return { message_id: 1 };
        },
      },
      answerOnce: async (answerText?: string, alert = false) => {
        answers.push({ text: answerText, alert });
        return true;
      },
      answerInlineQuery: async () => {
        inlineAnswers += 1;
      },
    };
    return ctx as unknown as BotContext;
  };

  return {
    said,
    answers,
    inlineAnswers: () => inlineAnswers,
    /** How many updates went past the middlewares on to the features. */
    served: () => served,
    /** Runs one update through `middlewares` in order, as Telegraf does. */
    async send(middlewares: Array<MiddlewareFn<BotContext>>, update: Update): Promise<void> {
      const ctx = context(update);
      const run = async (index: number): Promise<void> => {
        const middleware = middlewares[index];
        if (!middleware) {
          served += 1;
          return;
        }
        await middleware(ctx, () => run(index + 1));
      };
      await run(0);
    },
  };
};

/** A logger whose lines the test reads. */
export const createLogs = () => {
  const { logger, lines } = captureLogs();
  return { logger, warnings: () => lines.filter((line) => line.level === 40) };
};

/** A store that has gone away: every call fails as the PostgreSQL store fails when it cannot connect. */
export const unreachableLimits = (error: Error = new StoreUnavailableError('postgres://db/bot', 'connect ECONNREFUSED')): LimitStore => ({
  hit: async () => {
    throw error;
  },
  take: async () => {
    throw error;
  },
  sweep: async () => {
    throw error;
  },
});

export const createClock = (start = Date.UTC(2026, 10, 23, 11, 5)) => {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
};
