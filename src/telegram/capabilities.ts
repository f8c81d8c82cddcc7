import type { Logger } from 'pino';
import type { TelegramFeatures } from '../config.ts';

// What the Bot API server can do, by name, found out once per process. A self-hosted
// telegram-bot-api may be older than the cloud one: it answers 404 for a method it does not have,
// but silently ignores a field it does not know, so a field is used only once the server is known
// to read it. getMe tells: a server always sends the getMe keys of its version, so a key's presence
// proves the version that brought it, its absence that the server is older (docs/architecture.md,
// "The Bot API server's features"). TELEGRAM_FEATURES=legacy uses none of them.

type Version = `${number}.${number}`;

/** Each capability by name, with the Bot API version that brought it (the official changelog). */
export const CAPABILITIES = {
  /** InlineKeyboardButton.copy_text */
  copyText: '7.11',
  /** InlineKeyboardButton.style */
  buttonStyle: '9.4',
  /** the date_time entity, <tg-time> in HTML */
  dateTimeEntities: '9.5',
  /** sendRichMessage, editMessageText's rich_message, InputRichMessageContent (their `html`) */
  richMessages: '10.1',
  /** InlineKeyboardButton.disabled */
  disabledButtons: '10.3',
  /** answerGuestQuery and the guest_message update (guest mode, issue 32): only its 404 is used, to turn guest answers off */
  guestQueries: '10.0',
  /** ephemeral_message_parameters of sendMessage (10.3; 10.2 had other fields, which 10.3 ignores), editEphemeralMessage* */
  ephemeralMessages: '10.3',
} as const satisfies Record<string, Version>;

export type Capability = keyof typeof CAPABILITIES;

/** getMe keys in the order the Bot API added them, each with its version. */
export const GET_ME_MARKERS: ReadonlyArray<readonly [key: string, since: Version]> = [
  ['can_connect_to_business', '7.2'],
  ['has_main_web_app', '7.8'],
  ['has_topics_enabled', '9.3'],
  ['allows_users_to_create_topics', '9.4'],
  ['can_manage_bots', '9.6'],
  ['supports_guest_queries', '10.0'],
  ['supports_join_request_queries', '10.1'],
];

/**
 * Used where getMe cannot tell (no key came with 10.2 or 10.3): an older server refuses them
 * loudly and in a way the bot recognizes (a keyboard with a button it reads as having no action),
 * and that refusal turns them off. A capability an older server would take silently is never on this list.
 */
const TRIED_WHEN_UNKNOWN: ReadonlySet<Capability> = new Set(['disabledButtons']);

const ranks = new Map<Version, number>();
const rank = (version: Version): number => {
  let known = ranks.get(version);
  if (known === undefined) {
    const [major = 0, minor = 0] = version.split('.').map(Number);
    known = major * 1000 + minor;
    ranks.set(version, known);
  }
  return known;
};

export type ServerFeatures = {
  readonly mode: TelegramFeatures;
  /** Whether to use the capability now: known to the server, or worth trying there. */
  has(capability: Capability): boolean;
  /**
   * Neither known nor ruled out: getMe cannot tell (no key came with 10.2 or 10.3). A use must then
   * be one an older server refuses loudly, and its outcome is confirm() or lacks().
   */
  unknown(capability: Capability): boolean;
  /** A use went through: the server is at least as new as the capability (a disabled button taken: 10.3). */
  confirm(capability: Capability): void;
  /** The server turned out not to have it: not used again in this process, said once in the log. */
  lacks(capability: Capability, detail?: Record<string, unknown>): void;
  /** Where getMe's answer is read from, once it is there (the bot's botInfo, set at start). */
  readGetMe(source: () => object | undefined): void;
  /** A rich message Telegram refused for its content: the record's id and Telegram's words, never the content. */
  refused(record: string, error: { code?: number; description?: string }): void;
};

/** The server's features as getMe shows them, and as uses show them since. */
export const createServerFeatures = ({ mode, logger }: { mode: TelegramFeatures; logger: Pick<Logger, 'info' | 'warn'> }): ServerFeatures => {
  /** The server is at least this version… */
  let floor = 0;
  /** …and older than this one. */
  let ceiling = Infinity;
  let source: () => object | undefined = () => undefined;
  let read = false;
  const lacking = new Set<Capability>();

  const learn = () => {
    const me = source();
    if (me === undefined) return;
    read = true;
    for (const [key, since] of GET_ME_MARKERS) {
      if (key in me) floor = Math.max(floor, rank(since));
      else ceiling = Math.min(ceiling, rank(since));
    }
    if (mode === 'legacy') return logger.info({ telegramFeatures: mode }, 'Bot API server features: none used (TELEGRAM_FEATURES=legacy)');
    const used = (Object.keys(CAPABILITIES) as Capability[]).filter((capability) => has(capability));
    logger.info({ telegramFeatures: mode, features: used }, 'Bot API server features');
  };

  const has = (capability: Capability): boolean => {
    if (!read) learn();
    if (mode === 'legacy' || !read || lacking.has(capability)) return false;
    const since = rank(CAPABILITIES[capability]);
    return since < ceiling && (since <= floor || TRIED_WHEN_UNKNOWN.has(capability));
  };

  return {
    mode,
    has,
    unknown(capability) {
      if (!read) learn();
      if (mode === 'legacy' || !read || lacking.has(capability)) return false;
      const since = rank(CAPABILITIES[capability]);
      return since < ceiling && since > floor;
    },
    confirm(capability) {
      floor = Math.max(floor, rank(CAPABILITIES[capability]));
    },
    lacks(capability, detail = {}) {
      if (lacking.has(capability)) return;
      lacking.add(capability);
      ceiling = Math.min(ceiling, rank(CAPABILITIES[capability]));
      logger.warn(
        { capability, since: CAPABILITIES[capability], ...detail },
        `the Bot API server does not have ${capability} (Bot API ${CAPABILITIES[capability]}): the bot goes on without it until it restarts`,
      );
    },
    readGetMe(next) {
      source = next;
      read = false;
    },
    refused(record, error) {
      logger.warn({ record, errorCode: error.code, description: error.description }, 'Telegram refused a rich message: the HTML view instead');
    },
  };
};
