import type { UserFromGetMe } from 'telegraf/types';
import type { UserFromGetMe as CurrentUserFromGetMe } from '@grammyjs/types';
import { CallLog } from './calls.ts';
import { BotApi } from './emulator.ts';
import { startHttpServer } from './server.ts';
import { Front } from './front.ts';
import { createState } from './state.ts';
import { WebhookDelivery, type WebhookTarget } from './webhook-delivery.ts';
import { atLeast, CURRENT_BOT_API_VERSION, GET_ME_SINCE, isBotApiVersion, type BotApiVersion } from './versions.ts';

export interface StartBotApiOptions {
  /** "<bot id>:<secret>"; default DEFAULT_TOKEN */
  token?: string;
  /** default 'order_lookup_bot' */
  username?: string;
  /** default 'Order Lookup' */
  firstName?: string;
  /** default timeout of every wait helper; default 5000 ms */
  waitTimeoutMs?: number;
  /** reject a "&" that starts no character reference in HTML text (stricter than Telegram); default true */
  strictHtmlAmpersand?: boolean;
  /** getMe's supports_inline_queries (inline mode switched on with @BotFather); default false */
  supportsInlineQueries?: boolean;
  /** getMe's supports_guest_queries (guest mode switched on with @BotFather; servers of 10.0 and newer); default false */
  guestMode?: boolean;
  /** BotFather's Group Privacy (getMe's can_read_all_group_messages is its opposite); default true, as for a new bot */
  privacyMode?: boolean;
  /**
   * Where webhook posts go: maps the https URL given to setWebhook to a local address (e.g.
   * `() => 'http://127.0.0.1:PORT/hook'`); undefined for a URL leaves its updates queued. Without
   * it, nothing is posted (a test posts updates itself).
   */
  webhookTarget?: WebhookTarget;
  /** One second of Telegram's webhook resend delays, in ms; default 1000 (real time). */
  webhookRetryUnitMs?: number;
  /** How long a webhook post may go unanswered; default 60 000 ms, as telegram-bot-api. */
  webhookTimeoutMs?: number;
  /**
   * The Bot API version the server plays (default the current one, 10.3): an older one answers 404
   * for the methods it lacks, ignores the fields it does not know (recorded: api.ignoredFields()),
   * and leaves out of getMe the keys it does not send. The versions are in versions.ts.
   */
  botApiVersion?: BotApiVersion;
}

/** getMe's keys newer than 7.1, as a server of each version sends them (all false for a bot BotFather left as it is). */
const GET_ME_DEFAULTS: Omit<CurrentUserFromGetMe, keyof UserFromGetMe> = {
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_guest_queries: false,
  supports_join_request_queries: false,
};

export const DEFAULT_TOKEN = '7000000001:AAEmulatedTestToken-0123456789abcdefXYZ';
export const DEFAULT_USERNAME = 'order_lookup_bot';

export async function startBotApi(options: StartBotApiOptions = {}): Promise<BotApi> {
  const token = options.token ?? DEFAULT_TOKEN;
  const botApiVersion = options.botApiVersion ?? CURRENT_BOT_API_VERSION;
  if (!isBotApiVersion(botApiVersion)) throw new Error(`bot API emulator: "${String(botApiVersion)}" is not a Bot API version such as 9.3`);
  const botId = /^(\d+):[\w-]+$/.exec(token)?.[1];
  if (botId === undefined) throw new Error(`bot API emulator: "${token}" is not shaped like a bot token (<id>:<secret>)`);
  const botUser: UserFromGetMe = {
    id: Number(botId),
    is_bot: true,
    first_name: options.firstName ?? 'Order Lookup',
    username: options.username ?? DEFAULT_USERNAME,
    can_join_groups: true,
    can_read_all_group_messages: options.privacyMode === false,
    supports_inline_queries: options.supportsInlineQueries ?? false,
    ...Object.fromEntries(Object.entries(GET_ME_DEFAULTS).filter(([key]) => atLeast(botApiVersion, GET_ME_SINCE[key] ?? CURRENT_BOT_API_VERSION))),
  };
  if (options.guestMode === true && 'supports_guest_queries' in botUser) Object.assign(botUser, { supports_guest_queries: true });
  const state = createState(token, botUser, { strictHtmlAmpersand: options.strictHtmlAmpersand ?? true, botApiVersion });
  const log = new CallLog();
  const front = new Front();
  const server = await startHttpServer(state, log, front);
  const delivery = new WebhookDelivery(state, {
    target: options.webhookTarget,
    retryUnitMs: options.webhookRetryUnitMs ?? 1000,
    timeoutMs: options.webhookTimeoutMs ?? 60_000,
  });
  return new BotApi(state, log, server, delivery, front, options.waitTimeoutMs ?? 5000);
}
