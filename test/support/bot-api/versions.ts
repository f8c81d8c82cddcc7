// Which Bot API version brought each method, request field, getMe key and HTML tag the emulator
// knows: the one table behind startBotApi({ botApiVersion }). An older server answers 404 for a
// method it lacks and silently ignores a field it does not know (telegram-bot-api reads fields by
// name); the emulator drops such fields too, and records them (api.ignoredFields()) so that a
// test can fail on them. Versions from the official changelog (docs: /work/wt/botapi-10.md §1–3, §6).

export type BotApiVersion = `${number}.${number}`;

/** The version the emulator plays unless told otherwise. */
export const CURRENT_BOT_API_VERSION: BotApiVersion = '10.3';

const parts = (version: string): [number, number] => {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return [major, minor];
};

/** `version` is `since` or newer. */
export const atLeast = (version: BotApiVersion, since: BotApiVersion): boolean => {
  const [a, b] = parts(version);
  const [c, d] = parts(since);
  return a > c || (a === c && b >= d);
};

export const isBotApiVersion = (value: string): value is BotApiVersion => /^\d{1,2}\.\d{1,2}$/.test(value);

/** Methods newer than 7.0, by the version that brought them; older ones every server has. */
export const METHODS_SINCE: Readonly<Record<string, BotApiVersion>> = {
  answerGuestQuery: '10.0',
  sendRichMessage: '10.1',
  editEphemeralMessageText: '10.2',
  editEphemeralMessageReplyMarkup: '10.2',
  deleteEphemeralMessage: '10.2',
};

/**
 * A field of a request: the parameter it sits in, then the keys down to it; `*` steps into every
 * element of an array. `methods` lists the methods whose requests carry it (`*`: any).
 */
export type FieldRule = { methods: readonly string[] | '*'; path: readonly string[]; since: BotApiVersion };

/** The keys of an inline keyboard button, from where a keyboard sits in a request. */
const buttonFields = (methods: readonly string[] | '*', keyboard: readonly string[]): FieldRule[] => [
  { methods, path: [...keyboard, 'inline_keyboard', '*', '*', 'copy_text'], since: '7.11' },
  { methods, path: [...keyboard, 'inline_keyboard', '*', '*', 'style'], since: '9.4' },
  { methods, path: [...keyboard, 'inline_keyboard', '*', '*', 'icon_custom_emoji_id'], since: '9.4' },
  { methods, path: [...keyboard, 'inline_keyboard', '*', '*', 'disabled'], since: '10.3' },
];

export const FIELDS_SINCE: readonly FieldRule[] = [
  ...buttonFields('*', ['reply_markup']),
  ...buttonFields(['answerInlineQuery'], ['results', '*', 'reply_markup']),
  { methods: ['editMessageText'], path: ['rich_message'], since: '10.1' },
  { methods: ['sendRichMessage', 'editMessageText'], path: ['rich_message', 'blocks'], since: '10.2' },
  { methods: ['sendRichMessage', 'editMessageText'], path: ['rich_message', 'media'], since: '10.2' },
  { methods: ['answerInlineQuery'], path: ['results', '*', 'input_message_content', 'rich_message'], since: '10.1' },
  ...buttonFields(['answerGuestQuery'], ['result', 'reply_markup']),
  { methods: ['answerGuestQuery'], path: ['result', 'input_message_content', 'rich_message'], since: '10.1' },
  // Ephemeral messages (botapi-10.md §4.7): commands and replies came in 10.2; 10.3 replaced the
  // top-level receiver_user_id / callback_query_id with ephemeral_message_parameters.
  { methods: ['setMyCommands'], path: ['commands', '*', 'is_ephemeral'], since: '10.2' },
  { methods: '*', path: ['reply_parameters', 'ephemeral_message_id'], since: '10.2' },
  { methods: ['sendMessage', 'sendRichMessage', 'sendDocument'], path: ['ephemeral_message_parameters'], since: '10.3' },
];

/** Update types newer than 7.0: an older server never sends them. */
export const UPDATES_SINCE: Readonly<Record<string, BotApiVersion>> = {
  guest_message: '10.0',
};

/** getMe keys a server of at least this version always sends (botapi-10.md §6). */
export const GET_ME_SINCE: Readonly<Record<string, BotApiVersion>> = {
  can_connect_to_business: '7.2',
  has_main_web_app: '7.8',
  has_topics_enabled: '9.3',
  allows_users_to_create_topics: '9.4',
  can_manage_bots: '9.6',
  supports_guest_queries: '10.0',
  supports_join_request_queries: '10.1',
};

/** Tags of the HTML parse mode newer than 7.0: an older server's parser refuses them as unknown. */
export const HTML_TAGS_SINCE: Readonly<Record<string, BotApiVersion>> = {
  'tg-time': '9.5',
};

/** A field an older server dropped from a request, as a test reads it. */
export interface IgnoredField {
  /** the call's position in api.calls */
  seq: number;
  method: string;
  /** where it was, e.g. "reply_markup.inline_keyboard[0][1].disabled" */
  field: string;
  /** the version that brought it */
  since: BotApiVersion;
}

type Found = { field: string; since: BotApiVersion };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Removes `path` under `node`, wherever it is, noting each removal as written from `at`. */
const drop = (node: unknown, path: readonly string[], at: string, since: BotApiVersion, found: Found[]): void => {
  const [step, ...rest] = path;
  if (step === undefined) return;
  if (step === '*') {
    if (Array.isArray(node)) node.forEach((item, index) => drop(item, rest, `${at}[${index}]`, since, found));
    return;
  }
  if (!isRecord(node) || !Object.hasOwn(node, step)) return;
  if (rest.length === 0) {
    delete node[step];
    found.push({ field: at === '' ? step : `${at}.${step}`, since });
  } else drop(node[step], rest, at === '' ? step : `${at}.${step}`, since, found);
};

/**
 * The fields of a request that a server of `version` does not know, removed from `params` (a JSON
 * text parameter is read, and kept as the object it holds). Returns what was removed.
 */
export function dropUnknownFields(method: string, params: Record<string, unknown>, version: BotApiVersion): Found[] {
  const found: Found[] = [];
  for (const rule of FIELDS_SINCE) {
    if (atLeast(version, rule.since)) continue;
    if (rule.methods !== '*' && !rule.methods.includes(method)) continue;
    const [top] = rule.path;
    if (top === undefined || !Object.hasOwn(params, top)) continue;
    let value = params[top];
    if (typeof value === 'string' && rule.path.length > 1) {
      try {
        value = JSON.parse(value) as unknown;
      } catch {
        continue; // left for the method to refuse as unparsable
      }
      params[top] = value;
    }
    drop(params, rule.path, '', rule.since, found);
  }
  return found;
}
