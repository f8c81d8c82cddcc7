import type { Context } from '../telegram/telegraf/core.ts';
import type { Formatter } from '../format.ts';
import type { Locale, Translate } from '../i18n.ts';
import type { PageSize } from '../query.ts';
import type { CallbackAction } from './callback-data/codec.ts';

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
  /** Answers the callback query of this update at most once; true when this call answered it. */
  answerOnce(text?: string, showAlert?: boolean): Promise<boolean>;
}
