import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import type { Telegraf, User } from '../telegram/telegraf/core.ts';
import type { BotContext } from '../bot/context.ts';
import { ALLOWED_UPDATES } from '../bot/update-types.ts';
import { startPolling } from '../telegram/polling-runner.ts';
import { startLocalBotApi, type LocalAnswer, type LocalDocument } from './local-bot-api.ts';
import { saveDocument } from './save-document.ts';
import { CONSOLE_USER_ID } from './console-user.ts';
import { numberButtons, renderConsoleDocument, renderConsoleMessage } from './terminal.ts';

const CONSOLE_TOKEN = '1000000001:console-chat-local-token-0000000';
const CONSOLE_BOT: User = { id: 1_000_000_001, is_bot: true, first_name: 'Order lookup', username: 'order_lookup_bot' };

export type ConsoleChatOptions = {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Telegram's language_code for the console user; undefined lets DEFAULT_LANGUAGE decide. */
  languageCode: string | undefined;
  intro: string;
  logger: Logger;
  /** Where documents the bot sends are saved (made when the first comes): main.ts gives DATA_DIR/exports. */
  saveDir: string;
  createBot(apiRoot: string, token: string): Telegraf<BotContext>;
  /** Resolves once the work the bot does beside its updates (exports) is done: waited for before the chat closes. */
  idle?: () => Promise<void>;
};

/**
 * A chat with the bot in the terminal (like Hubot's shell adapter): type commands, press a
 * button by typing its number; a document the bot sends is saved as a file, its path printed.
 * Ends, after the bot has answered everything, on end of input.
 */
export const runConsoleChat = async (options: ConsoleChatOptions): Promise<void> => {
  const { input, output } = options;
  const color = output.isTTY === true;
  const user: User = { id: CONSOLE_USER_ID, is_bot: false, first_name: 'Console', ...(options.languageCode ? { language_code: options.languageCode } : {}) };
  let buttons: Array<{ messageId: number; data: string }> = [];

  const onAnswer = (answer: LocalAnswer) => {
    if (answer.type === 'alert') {
      output.write(`\n⚠️  ${answer.text}\n`);
      return;
    }
    const { message_id: id, text: html, keyboard, rich } = answer.message;
    const message = { id, html, keyboard, edited: answer.method === 'editMessageText' || answer.method === 'editMessageReplyMarkup', rich };
    const { pressable } = numberButtons(message);
    if (pressable.length > 0) buttons = pressable.map((data) => ({ messageId: id, data }));
    output.write(`${renderConsoleMessage(message, color)}\n`);
  };

  const onDocument = (document: LocalDocument) => {
    const path = saveDocument(options.saveDir, document.file_name, document.bytes);
    output.write(`${renderConsoleDocument(path, document.caption, color)}\n`);
  };

  const api = await startLocalBotApi({ bot: CONSOLE_BOT, token: CONSOLE_TOKEN, onAnswer, onDocument });
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
    if (press) api.press(user, press.messageId, press.data);
    else api.say(user, line);
    if (!color) output.write(`\n👤 ${line}\n`);
    await settled();
  }
  // An export goes on after its update: at the end of piped input its file is still to come.
  await options.idle?.();
  await settled();
  await runner.stop();
  await api.close();
};
