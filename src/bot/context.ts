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
  /** What "Try again" repeats if this update's portal call fails: the page it was fetching. */
  retry?: CallbackAction;
  /** What the Bot API server can do (rich messages, newer buttons), the same for every update of the process. */
  features: ServerFeatures;
  /** Answers the callback query of this update at most once; true when this call answered it. */
  answerOnce(text?: string, showAlert?: boolean): Promise<boolean>;
}
