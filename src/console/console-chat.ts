import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import type { Telegraf } from 'telegraf';
import type { User } from 'telegraf/types';
import type { BotContext } from '../bot/context.ts';
import { ALLOWED_UPDATES } from '../bot/update-types.ts';
import { startPolling } from '../telegram/polling-runner.ts';
import { startLocalBotApi, type ConsoleEvent } from './local-bot-api.ts';
import { numberButtons, renderConsoleMessage } from './terminal.ts';

export type ConsoleChatOptions = {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Telegram's language_code for the console user; undefined lets DEFAULT_LANGUAGE decide. */
  languageCode: string | undefined;
  intro: string;
  logger: Logger;
  createBot(apiRoot: string, token: string): Telegraf<BotContext>;
};

/**
 * A chat with the bot in the terminal (like Hubot's shell adapter): type commands, press a
 * button by typing its number. Ends, after the bot has answered everything, on end of input.
 */
export const runConsoleChat = async (options: ConsoleChatOptions): Promise<void> => {
  const { input, output } = options;
  const color = output.isTTY === true;
  const user: User = { id: 100_001, is_bot: false, first_name: 'Console', ...(options.languageCode ? { language_code: options.languageCode } : {}) };
  let buttons: Array<{ messageId: number; data: string }> = [];

  const onEvent = (event: ConsoleEvent) => {
    if (event.type === 'alert') {
      output.write(`\n⚠️  ${event.text}\n`);
      return;
    }
    const { pressable } = numberButtons(event.message);
    if (pressable.length > 0) buttons = pressable.map((data) => ({ messageId: event.message.id, data }));
    output.write(`${renderConsoleMessage(event.message, color)}\n`);
  };

  const api = await startLocalBotApi(user, onEvent);
  const bot = options.createBot(api.apiRoot, api.token);
  // The same runner as with Telegram: updates in order within the chat.
  const runner = await startPolling({ bot, logger: options.logger, allowedUpdates: ALLOWED_UPDATES, pollTimeoutSeconds: 10 });
  output.write(`${options.intro}\n`);
  /** The bot has fetched and handled everything said so far (it fetches again while handling). */
  const settled = async () => {
    await api.idle();
    while (runner.inFlight() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  const lines = createInterface({ input, terminal: false });
  for await (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    const press = /^\d{1,2}$/.test(line) ? buttons[Number(line) - 1] : undefined;
    if (press) api.press(press.messageId, press.data);
    else api.say(line);
    if (!color) output.write(`\n👤 ${line}\n`);
    await settled();
  }
  await runner.stop();
  await api.close();
};
