import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { User } from 'telegraf/types';
import { createBot } from '../../src/bot/create-bot.ts';
import { setCommandMenus } from '../../src/bot/commands-menu.ts';
import { parseConfig } from '../../src/config.ts';
import { createPortalClient } from '../../src/portal/client.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { startBotApi, type BotMessage } from './bot-api/index.ts';
import { startTestPortal } from './test-portal.ts';

// The real bot, polling the strict Bot API emulator over HTTP, asking the demo portal (behind a
// fault switch) over HTTP: everything as in production but the two remote ends.

export type HarnessOptions = { env?: Record<string, string>; demo?: boolean };

export const startHarness = async ({ env = {}, demo = false }: HarnessOptions = {}) => {
  const api = await startBotApi();
  const portal = await startTestPortal();
  const dataDir = mkdtempSync(join(tmpdir(), 'bot-store-'));
  /** The bot's clock; tests move it to see "updated" change. */
  const clock = { now: new Date('2026-11-23T11:05:00Z') };
  const config = parseConfig({
    BOT_TOKEN: api.token,
    TELEGRAM_API_ROOT: api.apiRoot,
    PORTAL_URL: portal.url,
    PORTAL_TOKEN: portal.token,
    PORTAL_TIMEOUT_MS: '500',
    ALLOW_ANYONE: 'true',
    DATA_DIR: dataDir,
    ...env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  if (config.portal.kind !== 'remote') throw new Error('the harness always configures a portal');
  const portalClient = createPortalClient({ baseUrl: config.portal.url, token: config.portal.token, timeoutMs: config.portal.timeoutMs });

  /** The bot as main.ts runs it: store opened from DATA_DIR, command menus set, long polling. */
  const launch = async () => {
    const store = openSqliteStore({ dataDir: config.dataDir });
    const bot = createBot({ token: api.token, config, portal: portalClient, store, logger, demo, now: () => clock.now });
    await setCommandMenus(bot.telegram, config.defaultLanguage);
    const running = bot.launch();
    await api.waitForPolling();
    return {
      async stop() {
        bot.stop('test over');
        await running.catch(() => undefined);
        store.close();
      },
    };
  };
  let instance = await launch();

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
    clock,
    ask,
    press,
    button,
    /** Stops the bot and starts a new one on the same data directory, as a redeploy does. */
    async restart() {
      await api.waitForIdle();
      await instance.stop();
      instance = await launch();
    },
    async close() {
      await instance.stop();
      await api.close();
      await portal.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export type Harness = Awaited<ReturnType<typeof startHarness>>;
