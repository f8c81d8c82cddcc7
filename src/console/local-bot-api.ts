import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InlineKeyboardButton, Message, Update, User } from 'telegraf/types';

// A Bot API on loopback that serves one private chat to the terminal, so the console drives the
// very same bot (long polling, HTTP, the real Telegraf) that runs against Telegram.

export type ConsoleMessage = { id: number; html: string; keyboard: InlineKeyboardButton[][]; edited: boolean };
export type ConsoleEvent = { type: 'message'; message: ConsoleMessage } | { type: 'alert'; text: string };

type Params = Record<string, unknown>;
const TOKEN = '1000000001:console-chat-local-token-0000000';
const BOT: User = { id: 1_000_000_001, is_bot: true, first_name: 'Order lookup', username: 'order_lookup_bot' };

const readBody = async (req: IncomingMessage): Promise<Params> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Params) : {};
};

export const startLocalBotApi = async (user: User, onEvent: (event: ConsoleEvent) => void) => {
  const updates: Update[] = [];
  const messages = new Map<number, ConsoleMessage & { data: Message.TextMessage }>();
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let waiting: (() => void) | undefined;
  let confirmed = 0;
  let idleWaiters: Array<() => void> = [];
  const chat = { id: user.id, type: 'private' as const, first_name: user.first_name };

  const push = (update: Omit<Update.MessageUpdate, 'update_id'> | Omit<Update.CallbackQueryUpdate, 'update_id'>) => {
    updates.push({ update_id: nextUpdateId++, ...update } as Update);
    waiting?.();
  };
  const now = () => Math.floor(Date.now() / 1000);

  const methods: Record<string, (params: Params) => Promise<unknown> | unknown> = {
    getMe: () => BOT,
    deleteWebhook: () => true,
    setMyCommands: () => true,
    sendChatAction: () => true,
    getUpdates: async (params) => {
      const offset = Number(params.offset ?? 0);
      // Asking from `offset` confirms every update before it: the bot has handled them.
      confirmed = Math.max(confirmed, offset - 1);
      if (confirmed >= nextUpdateId - 1) {
        idleWaiters.forEach((resolve) => resolve());
        idleWaiters = [];
      }
      while (updates.length > 0 && (updates[0]?.update_id ?? 0) < offset) updates.shift();
      if (updates.length === 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Number(params.timeout ?? 0) * 1000);
          waiting = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        waiting = undefined;
      }
      return updates.slice(0, Number(params.limit ?? 100));
    },
    sendMessage: (params) => {
      const id = nextMessageId++;
      const keyboard = (params.reply_markup as { inline_keyboard?: InlineKeyboardButton[][] })?.inline_keyboard ?? [];
      const data = { message_id: id, date: now(), chat, from: BOT, text: String(params.text) } as Message.TextMessage;
      const message = { id, html: String(params.text), keyboard, edited: false, data };
      messages.set(id, message);
      onEvent({ type: 'message', message });
      return data;
    },
    editMessageText: (params) => {
      const message = messages.get(Number(params.message_id));
      if (!message) throw Object.assign(new Error('Bad Request: message to edit not found'), { status: 400 });
      const keyboard = (params.reply_markup as { inline_keyboard?: InlineKeyboardButton[][] })?.inline_keyboard ?? [];
      if (message.html === params.text && JSON.stringify(message.keyboard) === JSON.stringify(keyboard)) {
        throw Object.assign(new Error('Bad Request: message is not modified'), { status: 400 });
      }
      Object.assign(message, { html: String(params.text), keyboard, edited: true });
      onEvent({ type: 'message', message });
      return { ...message.data, text: message.html };
    },
    answerCallbackQuery: (params) => {
      if (params.text) onEvent({ type: 'alert', text: String(params.text) });
      return true;
    },
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const method = /^\/bot[^/]+\/(\w+)$/.exec(req.url?.split('?')[0] ?? '')?.[1] ?? '';
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const handler = methods[method];
    if (!handler) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
    try {
      reply(200, { ok: true, result: await handler(await readBody(req)) });
    } catch (error) {
      const status = (error as { status?: number }).status ?? 500;
      reply(status, { ok: false, error_code: status, description: (error as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: TOKEN,
    say(text: string) {
      const command = /^\/\w+(@\w+)?/.exec(text)?.[0];
      const entities = command ? [{ type: 'bot_command' as const, offset: 0, length: command.length }] : undefined;
      push({ message: { message_id: nextMessageId++, date: now(), chat, from: user, text, ...(entities ? { entities } : {}) } });
    },
    press(messageId: number, data: string) {
      const message = messages.get(messageId);
      if (!message) return;
      push({
        callback_query: { id: String(nextUpdateId), from: user, chat_instance: '1', message: message.data, data },
      });
    },
    /** Resolves once the bot has handled everything said and pressed so far. */
    idle(): Promise<void> {
      if (confirmed >= nextUpdateId - 1) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      waiting?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
