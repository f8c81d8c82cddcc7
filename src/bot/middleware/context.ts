import type { MiddlewareFn } from 'telegraf';
import { createFormatter } from '../../format.ts';
import { createTranslator, LOCALES, resolveLocale, type Locale, type Translate } from '../../i18n.ts';
import type { PageSize } from '../../portal/query.ts';
import type { BotContext } from '../context.ts';
import { isQueryTooOld } from '../telegram-errors.ts';

export type ContextOptions = { defaultLanguage: Locale; pageSize: PageSize };

/** Decides the locale once per update and gives handlers what they need to speak it. */
export const contextMiddleware = (options: ContextOptions): MiddlewareFn<BotContext> => {
  const translators = Object.fromEntries(LOCALES.map((locale) => [locale, createTranslator(locale)])) as Record<Locale, Translate>;
  const formatters = Object.fromEntries(LOCALES.map((locale) => [locale, createFormatter(locale)])) as Record<
    Locale,
    ReturnType<typeof createFormatter>
  >;
  return async (ctx, next) => {
    const locale = resolveLocale(ctx.from?.language_code, options.defaultLanguage);
    ctx.locale = locale;
    ctx.t = translators[locale];
    ctx.fmt = formatters[locale];
    ctx.pageSize = options.pageSize;
    let answered = false;
    ctx.answerOnce = async (text, showAlert = false) => {
      if (answered || !ctx.callbackQuery) return false;
      answered = true;
      try {
        await ctx.answerCbQuery(text, { show_alert: showAlert });
      } catch (error) {
        // Too late to answer: the user's client has given up waiting; nothing to repair.
        if (!isQueryTooOld(error)) throw error;
      }
      return true;
    };
    await next();
  };
};
