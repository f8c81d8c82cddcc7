import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from '../http/node-http.ts';
import type { AddressInfo } from 'node:net';
import type { InlineKeyboardButton, User } from '../telegram/telegraf/core.ts';
import { readBody } from '../http/read-body.ts';
import { sendJson } from '../http/respond.ts';

// A Bot API on loopback, so that the very same bot (long polling, HTTP, the real Telegraf) runs
// without Telegram: the console chat serves one private chat to the terminal with it, and the
// benchmark drives many users through it. It validates nothing: that is the strict test
// emulator's job (test/support/bot-api/). A document (sendDocument, multipart/form-data) is handed
// over with its bytes, for the console chat to save. It plays a current server (Bot API 10.3, by
// getMe's keys): rich messages are kept as the html they were sent as.

type Params = Record<string, unknown>;

/** A message the bot sent: `text` is its HTML, or a rich message's html when `rich`. */
export type LocalMessage = { message_id: number; chat: { id: number; type: 'private'; first_name: string }; text: string; keyboard: InlineKeyboardButton[][]; rich?: boolean };

/** A file the bot sent (sendDocument); `caption` as the bot sent it (HTML when parse_mode says so). */
export type LocalDocument = { chatId: number; message_id: number; file_name: string; bytes: Buffer; caption: string | undefined; at: number };

/** An answering call of the bot: a message sent or edited, or an alert on a button press. */
export type LocalAnswer =
  | { type: 'message'; chatId: number; method: 'sendMessage' | 'sendRichMessage' | 'editMessageText' | 'editMessageReplyMarkup'; at: number; message: LocalMessage }
  | { type: 'alert'; chatId: number; method: 'answerCallbackQuery'; at: number; text: string };

export type LocalBotApiOptions = {
  bot: User;
  token: string;
  /** Called for each answering call, synchronously, before the call is answered. */
  onAnswer?: (answer: LocalAnswer) => void;
  /** Called for each document sent, synchronously, before the call is answered. */
  onDocument?: (document: LocalDocument) => void;
  /**
   * Webhook mode (the benchmark's replicas): each update said or pressed is handed to this, to be
   * posted to the bot, instead of waiting for getUpdates.
   */
  onUpdate?: (update: { update_id: number } & Params) => void;
};

/** A bot's JSON calls here are a few KB; a document may have Telegram's 50 MB, and its form fields. */
const MAX_REQUEST_BYTES = 51 * 1024 * 1024;

const badRequest = (description: string) => Object.assign(new Error(description), { status: 400 });

/** getMe's keys up to Bot API 10.3, which a current server always sends: the bot reads its features from them. */
const CURRENT_GET_ME = {
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_guest_queries: false,
  supports_join_request_queries: false,
};

/** A rich message's html, as sent (InputRichMessage.html). */
const richHtml = (params: Params): string => String((params.rich_message as { html?: unknown } | undefined)?.html ?? '');

const keyboardOf = (params: Params): InlineKeyboardButton[][] =>
  (params.reply_markup as { inline_keyboard?: InlineKeyboardButton[][] } | undefined)?.inline_keyboard ?? [];

export type LocalBotApi = Awaited<ReturnType<typeof startLocalBotApi>>;

/** Fields a multipart request carries as JSON text. */
const JSON_FIELDS = new Set(['reply_markup', 'reply_parameters', 'caption_entities', 'entities', 'link_preview_options', 'rich_message']);

/** A JSON body, or a multipart/form-data one (its file parts as Files). */
const parseBody = async (body: Buffer, contentType: string): Promise<Params> => {
  if (body.length === 0) return {};
  if (!contentType.startsWith('multipart/form-data')) return JSON.parse(body.toString('utf8')) as Params;
  const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  const params: Params = {};
  for (const [key, value] of form) params[key] = typeof value === 'string' && JSON_FIELDS.has(key) ? (JSON.parse(value) as unknown) : value;
  return params;
};

export const startLocalBotApi = async ({ bot, token, onAnswer = () => undefined, onDocument = () => undefined, onUpdate }: LocalBotApiOptions) => {
  let updates: Array<{ update_id: number } & Params> = [];
  const messages = new Map<string, LocalMessage>();
  const chats = new Map<number, LocalMessage['chat']>();
  /** Which chat each callback query came from: an alert is told to that chat. */
  const pressedIn = new Map<string, number>();
  const calls = new Map<string, number>();
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let nextPressId = 1;
  let confirmed = 0;
  /** What setWebhook set, as getWebhookInfo tells it. */
  let webhook = { url: '', allowed_updates: [] as unknown[] };
  let waiter: (() => void) | undefined;
  const idleWaiters: Array<() => void> = [];
  const now = () => Math.floor(Date.now() / 1000);
  const wire = (message: LocalMessage) => ({
    message_id: message.message_id,
    date: now(),
    chat: message.chat,
    from: bot,
    // Not parsed into blocks: the bot only needs to know a message is rich.
    ...(message.rich ? { rich_message: { blocks: [] } } : { text: message.text }),
    ...(message.keyboard.length > 0 && { reply_markup: { inline_keyboard: message.keyboard } }),
  });
  const chatOf = (user: User) => {
    const chat = { id: user.id, type: 'private' as const, first_name: user.first_name };
    chats.set(user.id, chat);
    return chat;
  };

  const push = (update: Params): number => {
    const id = nextUpdateId++;
    if (onUpdate) {
      onUpdate({ update_id: id, ...update });
      return id;
    }
    updates.push({ update_id: id, ...update });
    waiter?.();
    return id;
  };

  const methods: Record<string, (params: Params) => Promise<unknown> | unknown> = {
    getMe: () => ({ ...bot, ...CURRENT_GET_ME }),
    deleteWebhook: () => {
      webhook = { url: '', allowed_updates: [] };
      return true;
    },
    setWebhook: (params) => {
      webhook = { url: String(params.url ?? ''), allowed_updates: Array.isArray(params.allowed_updates) ? params.allowed_updates : [] };
      return true;
    },
    getWebhookInfo: () => ({ ...webhook, has_custom_certificate: false, pending_update_count: 0, max_connections: 40 }),
    setMyCommands: () => true,
    sendChatAction: () => true,
    getUpdates: async (params) => {
      const offset = Number(params.offset ?? 0);
      // Asking from `offset` confirms every update before it: the bot has handled them.
      confirmed = Math.max(confirmed, offset - 1);
      if (confirmed >= nextUpdateId - 1) {
        for (const resolve of idleWaiters.splice(0)) resolve();
      }
      if (updates.length > 0 && (updates[0]?.update_id ?? 0) < offset) updates = updates.filter((update) => update.update_id >= offset);
      const timeout = Number(params.timeout ?? 0) * 1000;
      if (updates.length === 0 && timeout > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeout);
          waiter = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        waiter = undefined;
      }
      return updates.slice(0, Number(params.limit ?? 100));
    },
    sendMessage: (params) => {
      const chatId = Number(params.chat_id);
      const message: LocalMessage = {
        message_id: nextMessageId++,
        chat: chats.get(chatId) ?? { id: chatId, type: 'private', first_name: '' },
        text: String(params.text),
        keyboard: keyboardOf(params),
      };
      messages.set(`${chatId}:${message.message_id}`, message);
      onAnswer({ type: 'message', chatId, method: 'sendMessage', at: performance.now(), message });
      return wire(message);
    },
    sendRichMessage: (params) => {
      const chatId = Number(params.chat_id);
      const message: LocalMessage = {
        message_id: nextMessageId++,
        chat: chats.get(chatId) ?? { id: chatId, type: 'private', first_name: '' },
        text: richHtml(params),
        keyboard: keyboardOf(params),
        rich: true,
      };
      messages.set(`${chatId}:${message.message_id}`, message);
      onAnswer({ type: 'message', chatId, method: 'sendRichMessage', at: performance.now(), message });
      return wire(message);
    },
    editMessageText: (params) => {
      const chatId = Number(params.chat_id);
      const message = messages.get(`${chatId}:${Number(params.message_id)}`);
      if (!message) throw badRequest('Bad Request: message to edit not found');
      const keyboard = keyboardOf(params);
      const rich = params.rich_message !== undefined;
      const text = rich ? richHtml(params) : String(params.text);
      if (rich !== Boolean(message.rich)) throw badRequest("Bad Request: message can't be edited");
      if (message.text === text && JSON.stringify(message.keyboard) === JSON.stringify(keyboard)) {
        throw badRequest('Bad Request: message is not modified');
      }
      message.text = text;
      message.keyboard = keyboard;
      onAnswer({ type: 'message', chatId, method: 'editMessageText', at: performance.now(), message });
      return wire(message);
    },
    editMessageReplyMarkup: (params) => {
      const chatId = Number(params.chat_id);
      const message = messages.get(`${chatId}:${Number(params.message_id)}`);
      if (!message) throw badRequest('Bad Request: message to edit not found');
      const keyboard = keyboardOf(params);
      if (JSON.stringify(message.keyboard) === JSON.stringify(keyboard)) throw badRequest('Bad Request: message is not modified');
      message.keyboard = keyboard;
      onAnswer({ type: 'message', chatId, method: 'editMessageReplyMarkup', at: performance.now(), message });
      return wire(message);
    },
    deleteMessage: (params) => {
      if (!messages.delete(`${Number(params.chat_id)}:${Number(params.message_id)}`)) throw badRequest('Bad Request: message to delete not found');
      return true;
    },
    sendDocument: async (params) => {
      const chatId = Number(params.chat_id);
      const file = params.document;
      if (!(file instanceof File)) throw badRequest('Bad Request: wrong file identifier/HTTP URL specified');
      if (file.size === 0) throw badRequest('Bad Request: file must be non-empty');
      const messageId = nextMessageId++;
      const caption = params.caption === undefined ? undefined : String(params.caption);
      onDocument({ chatId, message_id: messageId, file_name: file.name, bytes: Buffer.from(await file.arrayBuffer()), caption, at: performance.now() });
      return {
        message_id: messageId,
        date: now(),
        chat: chats.get(chatId) ?? { id: chatId, type: 'private', first_name: '' },
        from: bot,
        document: { file_id: `local-${messageId}`, file_unique_id: `local-${messageId}`, file_name: file.name, mime_type: file.type || 'application/octet-stream', file_size: file.size },
        ...(caption !== undefined && { caption }),
      };
    },
    answerCallbackQuery: (params) => {
      const id = String(params.callback_query_id);
      const chatId = pressedIn.get(id);
      pressedIn.delete(id);
      if (params.text && chatId !== undefined) onAnswer({ type: 'alert', chatId, method: 'answerCallbackQuery', at: performance.now(), text: String(params.text) });
      return true;
    },
  };

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const method = /^\/bot[^/]+\/(\w+)$/.exec(req.url?.split('?')[0] ?? '')?.[1] ?? '';
    calls.set(method, (calls.get(method) ?? 0) + 1);
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) return sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    try {
      const body = await readBody(req, MAX_REQUEST_BYTES);
      if (body === undefined) return sendJson(res, 413, { ok: false, error_code: 413, description: 'Request Entity Too Large' });
      sendJson(res, 200, { ok: true, result: await handler(await parseBody(body, req.headers['content-type'] ?? '')) });
    } catch (error) {
      const status = (error as { status?: number }).status ?? 500;
      sendJson(res, status, { ok: false, error_code: status, description: (error as Error).message });
    }
  };
  const server = createServer((req, res) => void serve(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    apiRoot: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    /** How many times each method was called. */
    calls,
    /** The user writes in their private chat; commands carry their bot_command entity. */
    say(user: User, text: string): number {
      const command = /^\/\w+(@\w+)?/.exec(text)?.[0];
      const entities = command ? [{ type: 'bot_command', offset: 0, length: command.length }] : undefined;
      return push({ message: { message_id: nextMessageId++, date: now(), chat: chatOf(user), from: user, text, ...(entities && { entities }) } });
    },
    /** The user presses a button of a message the bot sent them; nothing for a message it does not know. */
    press(user: User, messageId: number, data: string): number | undefined {
      const message = messages.get(`${user.id}:${messageId}`);
      if (!message) return undefined;
      const id = String(nextPressId++);
      pressedIn.set(id, user.id);
      return push({ callback_query: { id, from: user, chat_instance: String(user.id), message: wire(message), data } });
    },
    /** Updates waiting to be fetched. */
    backlog: () => updates.length,
    /** Resolves once the bot has fetched everything said and pressed so far. */
    idle(): Promise<void> {
      if (confirmed >= nextUpdateId - 1) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      waiter?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
