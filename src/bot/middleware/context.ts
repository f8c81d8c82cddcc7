import type { MiddlewareFn } from '../../telegram/telegraf/core.ts';
import { createFormatter, type Formatter } from '../../format.ts';
import { NO_STATUS_NAMES, withStatusNames, type StatusNames } from '../../status-names.ts';
import { createTranslator, perLocale, resolveLocale, type Locale, type Translate } from '../../i18n.ts';
import type { PageSize } from '../../query.ts';
import { andThen, type SettingsStore, type UserSettings } from '../../store/store.ts';
import type { BotContext } from '../context.ts';
import { isQueryTooOld } from '../../telegram/errors.ts';
import { guestMessageOf } from '../guest-message.ts';

export type ContextOptions = { defaultLanguage: Locale; pageSize: PageSize; timeZone: string; settings: SettingsStore; statusNames?: StatusNames };

/**
 * Decides once per update how to speak: a group's language set by its admins, else the user's
 * own choice, else Telegram's language_code, else DEFAULT_LANGUAGE; the chat's time zone, else
 * TIME_ZONE; and the user's page size.
 */
export const contextMiddleware = (options: ContextOptions): MiddlewareFn<BotContext> => {
  const translators = perLocale<Translate>(createTranslator);
  const names = options.statusNames ?? NO_STATUS_NAMES;
  // createFormatter keeps one per language and zone; so does this, with the status names on it.
  const named = new Map<Formatter, Formatter>();
  const formatterFor = (locale: Locale, timeZone: string): Formatter => {
    const formatter = createFormatter(locale, timeZone);
    let withNames = named.get(formatter);
    if (withNames === undefined) {
      withNames = withStatusNames(formatter, names);
      named.set(formatter, withNames);
    }
    return withNames;
  };
  const setUp = (ctx: BotContext, from: { language_code?: string | undefined } | undefined, own: UserSettings, group: Locale | undefined, zone: string | undefined): void => {
    ctx.timeZone = zone ?? options.timeZone;
    ctx.useLocale = (locale) => {
      ctx.locale = locale;
      ctx.t = translators[locale];
      ctx.fmt = formatterFor(locale, ctx.timeZone);
    };
    ctx.useTimeZone = (timeZone) => {
      ctx.timeZone = timeZone;
      ctx.fmt = formatterFor(ctx.locale, timeZone);
    };
    ctx.useLocale(group ?? own.locale ?? resolveLocale(from?.language_code, options.defaultLanguage));
    ctx.pageSize = own.pageSize ?? options.pageSize;
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
  };
  // Not async: the settings cache (and sqlite) answer at once, and every update passes here.
  return (ctx, next) => {
    // A guest message (an update Telegraf does not know) has its user only inside it.
    const from = ctx.from ?? guestMessageOf(ctx)?.from;
    const chat = ctx.chat;
    // The chat's zone; an inline query has no chat: its user's own (their private chat's).
    const zoneChat = chat?.id ?? ctx.from?.id;
    return andThen(from ? options.settings.user(from.id) : NO_SETTINGS, (own) =>
      andThen(chat && chat.type !== 'private' ? options.settings.chatLocale(chat.id) : undefined, (group) =>
        andThen(zoneChat === undefined ? undefined : options.settings.chatTimeZone(zoneChat), (zone) => {
          setUp(ctx, from, own, group, zone);
          return next();
        }),
      ),
    );
  };
};

const NO_SETTINGS: UserSettings = Object.freeze({});
