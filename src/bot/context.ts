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
}
