import { pino } from 'pino';
import type { User } from 'telegraf/types';
import { createBot } from '../../src/bot/create-bot.ts';
import { createMemoryQueryStore } from '../../src/bot/query-store.ts';
import { parseConfig } from '../../src/config.ts';
import { createPortalClient } from '../../src/portal/client.ts';
import { startBotApi, type BotMessage } from './bot-api/index.ts';
import { startTestPortal } from './test-portal.ts';

// The real bot, polling the strict Bot API emulator over HTTP, asking the demo portal (behind a
// fault switch) over HTTP: everything as in production but the two remote ends.

export type HarnessOptions = { env?: Record<string, string>; demo?: boolean };

export const startHarness = async ({ env = {}, demo = false }: HarnessOptions = {}) => {
  const api = await startBotApi();
  const portal = await startTestPortal();
  const config = parseConfig({
    BOT_TOKEN: api.token,
    TELEGRAM_API_ROOT: api.apiRoot,
    PORTAL_URL: portal.url,
    PORTAL_TOKEN: portal.token,
    PORTAL_TIMEOUT_MS: '500',
    ALLOW_ANYONE: 'true',
    ...env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  if (config.portal.kind !== 'remote') throw new Error('the harness always configures a portal');
  const bot = createBot({
    token: api.token,
    config,
    portal: createPortalClient({ baseUrl: config.portal.url, token: config.portal.token, timeoutMs: config.portal.timeoutMs }),
    queries: createMemoryQueryStore(),
    logger,
    demo,
  });
  const running = bot.launch();
  await api.waitForPolling();

  /** A user writes in a chat (their private chat by default) and the bot's next message there is returned. */
  const ask = async (from: User, text: string, chat: Parameters<typeof api.sendText>[0]['chat'] = undefined): Promise<BotMessage> => {
    const chatId = chat?.id ?? from.id;
    const reply = api.nextBotMessage(chatId);
    api.sendText({ from, text, ...(chat ? { chat } : {}) });
    return reply;
  };

  /** A user presses a button of a bot message; resolves when the press was answered and handled. */
  const press = async (from: User, message: BotMessage, data: string, forged = false) => {
    const id = api.pressButton({ from, message, data, forged });
    const answer = await api.waitForAnswer(id);
    await api.waitForIdle();
    return { answer, message: api.message(message.chat_id, message.message_id) };
  };

  /** The data of the button whose text is `text` on a message. */
  const button = (message: BotMessage | undefined, text: string): string => {
    const found = message?.buttons.find((candidate) => candidate.text === text);
    if (!found || !('callback_data' in found)) throw new Error(`no button "${text}" in ${JSON.stringify(message?.buttons)}`);
    return found.callback_data;
  };

  return {
    api,
    portal,
    logs,
    ask,
    press,
    button,
    async close() {
      bot.stop('test over');
      await running.catch(() => undefined);
      await api.close();
      await portal.close();
    },
  };
};

export type Harness = Awaited<ReturnType<typeof startHarness>>;
