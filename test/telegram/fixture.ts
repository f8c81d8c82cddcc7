import { pino } from 'pino';
import { startBotApi } from '../support/bot-api/index.ts';
import type { BotApi } from '../support/bot-api/index.ts';
import { createTelegraf } from '../../src/telegram/telegraf/bot.ts';
import { startPolling } from '../../src/telegram/polling-runner.ts';
import type { PollingOptions, Runner } from '../../src/telegram/polling-runner.ts';

export type TextUpdate = { updateId: number; chatId: number; userId: number; text: string; reply(text: string): Promise<unknown> };

/** A promise the test resolves when it wants a handler to go on. */
export const createGate = () => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `probe` holds, checked every 5 ms: for state the emulator does not see (a proxy, a handler). */
export const until = async (probe: () => boolean, timeoutMs = 3000): Promise<void> => {
  const startedAt = Date.now();
  while (!probe()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`the condition did not hold within ${timeoutMs} ms`);
    await sleep(5);
  }
};

/** A tiny bot: every text message goes to `onText`; errors reach the runner instead of Telegraf's exit code. */
export const createTestBot = (api: BotApi, onText: (update: TextUpdate) => Promise<void>, apiRoot = api.apiRoot) => {
  // As createBot makes it: no Telegraf timeout, Bot API calls through the bot's own client.
  const bot = createTelegraf(api.token, { apiRoot });
  bot.use((ctx, next) => {
    const { chat, from, message } = ctx;
    if (chat === undefined || from === undefined || message === undefined || !('text' in message)) return next();
    return onText({ updateId: ctx.update.update_id, chatId: chat.id, userId: from.id, text: message.text, reply: (text) => ctx.reply(text) });
  });
  bot.catch((error) => {
    throw error;
  });
  return bot;
};

/** The emulator, a log to read, and runners stopped after each test. */
export const startFixture = async () => {
  const api = await startBotApi({ waitTimeoutMs: 3000 });
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const runners: Runner[] = [];
  const cleanups: Array<() => unknown> = [];
  return {
    api,
    logs,
    logger,
    /** Fast defaults: 1 s long polls, 20 ms backoff steps. */
    async start(options: Partial<PollingOptions> & Pick<PollingOptions, 'bot'>) {
      const runner = await startPolling({ logger, pollTimeoutSeconds: 1, backoff: { baseMs: 20, maxMs: 100 }, ...options });
      runners.push(runner);
      return runner;
    },
    onClose(cleanup: () => unknown) {
      cleanups.push(cleanup);
    },
    logged: (msg: string) => logs.filter((line) => line.msg === msg),
    async close() {
      for (const cleanup of cleanups) await cleanup();
      await Promise.all(runners.map((runner) => runner.stop(100)));
      await api.close();
    },
  };
};

export type Fixture = Awaited<ReturnType<typeof startFixture>>;
