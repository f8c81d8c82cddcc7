import type { User } from 'telegraf/types';
import { startLocalBotApi, type LocalMessage } from '../src/console/local-bot-api.ts';

// The benchmark's Bot API: the console chat's loopback Bot API (src/console/local-bot-api.ts: no
// validation, no HTML parsing), with many users, and the time each answer arrived (sendMessage,
// editMessageText or an alert for that chat), which is all the load needs. With `webhook`, each
// update said or pressed is handed to the function given to deliverTo (which posts it to the bot)
// instead of waiting for the bot's getUpdates.

export type BotMessage = LocalMessage;
export type Answer = { chatId: number; method: string; at: number; message?: BotMessage; alert?: string };

export const TOKEN = '1000000002:bench-token-00000000000000000000000';
const BOT: User = { id: 1_000_000_002, is_bot: true, first_name: 'Bench', username: 'bench_lookup_bot' };

export type LeanBotApi = Awaited<ReturnType<typeof startLeanBotApi>>;

export type Update = { update_id: number } & Record<string, unknown>;

export const startLeanBotApi = async ({ webhook = false }: { webhook?: boolean } = {}) => {
  let listener: (answer: Answer) => void = () => undefined;
  let deliver: (update: Update) => void = () => {
    throw new Error('lean Bot API: an update to deliver before deliverTo was called');
  };
  const api = await startLocalBotApi({
    bot: BOT,
    token: TOKEN,
    ...(webhook && { onUpdate: (update: Update) => deliver(update) }),
    onAnswer: (answer) =>
      listener(
        answer.type === 'alert'
          ? { chatId: answer.chatId, method: answer.method, at: answer.at, alert: answer.text }
          : { chatId: answer.chatId, method: answer.method, at: answer.at, message: answer.message },
      ),
  });
  const users = new Map<number, User>();
  const user = (id: number): User => {
    let known = users.get(id);
    if (!known) users.set(id, (known = { id, is_bot: false, first_name: `User ${id}`, language_code: 'en' }));
    return known;
  };
  return {
    apiRoot: api.apiRoot,
    token: api.token,
    calls: api.calls,
    backlog: api.backlog,
    close: api.close,
    /** Called for each answering call of the bot. */
    onAnswer(next: (answer: Answer) => void) {
      listener = next;
    },
    /** Webhook mode: where updates go from now on. */
    deliverTo(next: (update: Update) => void) {
      deliver = next;
    },
    say: (userId: number, text: string): number => api.say(user(userId), text),
    press: (userId: number, message: BotMessage, data: string): number | undefined => api.press(user(userId), message.message_id, data),
  };
};
