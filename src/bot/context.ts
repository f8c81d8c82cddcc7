import type { Context } from '../telegram/telegraf/core.ts';
import type { Formatter } from '../format.ts';
import type { Locale, Translate } from '../i18n.ts';
import type { PageSize } from '../query.ts';
import type { CallbackAction } from './callback-data/codec.ts';
import type { ServerFeatures } from '../telegram/capabilities.ts';

/** Telegraf's context, with what the middleware decides once per update. */
export interface BotContext extends Context {
  locale: Locale;
  t: Translate;
  fmt: Formatter;
  pageSize: PageSize;
  /** Speaks `locale` from now on in this update (after the user changed it). */
  useLocale(locale: Locale): void;
  /** The chat's time zone (IANA name): its own, else TIME_ZONE; `fmt` reads times in it. */
  timeZone: string;
  /** Reads times in `timeZone` from now on in this update (after the chat changed it). */
  useTimeZone(timeZone: string): void;
  /** What "Try again" repeats if this update's portal call fails: the page it was fetching. */
  retry?: CallbackAction;
  /**
   * Counts `count` more queries of this update's user against the flood limit (a pasted text's
   * identifiers, each one query): how many of them may reach the portal now. When none may, the
   * user is told once to slow down, unless `quiet` (a group's chatter read for /autolookup).
   */
  takeQueries(count: number, options?: { quiet?: boolean }): Promise<number>;
  /** What the Bot API server can do (rich messages, newer buttons), the same for every update of the process. */
  features: ServerFeatures;
  /** Answers the callback query of this update at most once; true when this call answered it. */
  answerOnce(text?: string, showAlert?: boolean): Promise<boolean>;
  /** Where this update's answer goes when not simply into its chat (issue 32: src/bot/features/answers.ts). */
  answerPlace?: AnswerPlace;
}

/**
 * An answer for one user of a group: in an ephemeral message (10.3) where Telegram allows one, else
 * in the user's private chat with the bot; never publicly in the group.
 */
export type AnswerPlace = {
  groupId: number;
  userId: number;
  /** Unset: the private chat (an older server, a public command in a private-mode group, Telegram refused). */
  ephemeral?: {
    /** the incoming ephemeral message answered (within 15 s of it) */
    replyTo?: number;
    /** the press answered (within 15 s of it) */
    callbackQueryId?: string;
    /** shown in place of the pressed public message, for this user */
    replace?: boolean;
    /** the user's ephemeral message to show the answer in: the one pressed, or the "Looking…" sent first */
    editId?: number;
    /** the "Looking…" on its way: its id, undefined if it could not be sent */
    placeholder?: Promise<number | undefined>;
  };
  /** A public answer's view for another user (public mode): where no ephemeral message can go, the public message as before. */
  publicly?: boolean;
  /** The /start payload that runs the same lookup in the private chat (its button in the note). */
  rerun?: string;
  /** A group's chatter read for /autolookup: where the private chat cannot be written to, nothing is said. */
  quiet?: boolean;
  /** What is shown is no view of records (an error): no 📣 under it. */
  plain?: boolean;
  /** The note asking the user to open the private chat was posted (once per update). */
  noted?: boolean;
  /** Why an answer went to the private chat: logged once per process and cause. */
  fellBack(cause: string, detail?: Record<string, unknown>): void;
};
