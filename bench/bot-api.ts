import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A lean Bot API emulator for the benchmark: only what the bot and the bare Telegraf bot call,
// no validation, no HTML parsing. It records when each update was enqueued and when the bot
// answered it (sendMessage / editMessageText for that chat), which is all the load needs.

type Params = Record<string, unknown>;
export type Button = { text: string; callback_data?: string };
export type BotMessage = { message_id: number; chat: { id: number; type: 'private' }; text: string; keyboard: Button[][] };
export type Answer = { chatId: number; method: string; at: number; message?: BotMessage; alert?: string };

export const TOKEN = '1000000002:bench-token-00000000000000000000000';
const BOT = { id: 1_000_000_002, is_bot: true, first_name: 'Bench', username: 'bench_lookup_bot' };

export type LeanBotApi = Awaited<ReturnType<typeof startLeanBotApi>>;

export const startLeanBotApi = async () => {
  let updates: Array<{ update_id: number } & Params> = [];
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let waiter: (() => void) | undefined;
  const messages = new Map<string, BotMessage>();
  const calls = new Map<string, number>();
  let onAnswer: (answer: Answer) => void = () => {};
  const now = () => Math.floor(Date.now() / 1000);
  const keyboardOf = (params: Params): Button[][] =>
    (params.reply_markup as { inline_keyboard?: Button[][] } | undefined)?.inline_keyboard ?? [];
  const wire = (message: BotMessage) => ({
    message_id: message.message_id,
    date: now(),
    chat: message.chat,
    from: BOT,
    text: message.text,
    ...(message.keyboard.length > 0 && { reply_markup: { inline_keyboard: message.keyboard } }),
  });

  const methods: Record<string, (params: Params) => Promise<unknown> | unknown> = {
    getMe: () => BOT,
    deleteWebhook: () => true,
    setMyCommands: () => true,
    sendChatAction: () => true,
    getUpdates: async (params) => {
      const offset = Number(params.offset ?? 0);
      if (updates.length > 0 && (updates[0]?.update_id ?? 0) < offset) updates = updates.filter((update) => update.update_id >= offset);
      if (updates.length === 0) {
        const timeout = Number(params.timeout ?? 0) * 1000;
        if (timeout > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeout);
            waiter = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          waiter = undefined;
        }
      }
      return updates.slice(0, Number(params.limit ?? 100));
    },
    sendMessage: (params) => {
      const chatId = Number(params.chat_id);
      const message: BotMessage = {
        message_id: nextMessageId++,
        chat: { id: chatId, type: 'private' },
        text: String(params.text),
        keyboard: keyboardOf(params),
      };
      messages.set(`${chatId}:${message.message_id}`, message);
      onAnswer({ chatId, method: 'sendMessage', at: performance.now(), message });
      return wire(message);
    },
    editMessageText: (params) => {
      const chatId = Number(params.chat_id);
      const key = `${chatId}:${Number(params.message_id)}`;
      const message = messages.get(key);
      if (!message) throw Object.assign(new Error('Bad Request: message to edit not found'), { status: 400 });
      message.text = String(params.text);
      message.keyboard = keyboardOf(params);
      onAnswer({ chatId, method: 'editMessageText', at: performance.now(), message });
      return wire(message);
    },
    answerCallbackQuery: (params) => {
      // The callback query id is "<chat id>:<n>": an alert is the only answer to some presses.
      if (params.text) onAnswer({ chatId: Number(String(params.callback_query_id).split(':')[0]), method: 'answerCallbackQuery', at: performance.now(), alert: String(params.text) });
      return true;
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '';
      const method = url.slice(url.lastIndexOf('/') + 1).split('?')[0] ?? '';
      calls.set(method, (calls.get(method) ?? 0) + 1);
      const reply = (status: number, body: unknown) => {
        const json = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
        res.end(json);
      };
      const handler = methods[method];
      if (!handler) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      void (async () => {
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          reply(200, { ok: true, result: await handler(text ? (JSON.parse(text) as Params) : {}) });
        } catch (error) {
          const status = (error as { status?: number }).status ?? 500;
          reply(status, { ok: false, error_code: status, description: (error as Error).message });
        }
      })();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const push = (update: Params): number => {
    const id = nextUpdateId++;
    updates.push({ update_id: id, ...update });
    waiter?.();
    return id;
  };
  const user = (id: number) => ({ id, is_bot: false, first_name: `User ${id}`, language_code: 'en' });
  let pressCount = 0;

  return {
    apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: TOKEN,
    calls,
    /** Called for each answering call of the bot. */
    onAnswer(listener: (answer: Answer) => void) {
      onAnswer = listener;
    },
    say(userId: number, text: string): number {
      const command = /^\/\w+/.exec(text)?.[0];
      return push({
        message: {
          message_id: nextMessageId++,
          date: now(),
          chat: { id: userId, type: 'private', first_name: `User ${userId}` },
          from: user(userId),
          text,
          ...(command && { entities: [{ type: 'bot_command', offset: 0, length: command.length }] }),
        },
      });
    },
    press(userId: number, message: BotMessage, data: string): number {
      return push({
        callback_query: { id: `${userId}:${++pressCount}`, from: user(userId), chat_instance: String(userId), message: wire(message), data },
      });
    },
    backlog: () => updates.length,
    async close() {
      waiter?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
