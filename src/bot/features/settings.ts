import { resolveLocale, type Locale } from '../../i18n.ts';
import type { SettingsStore } from '../../store/store.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import { editView, replyOptions, replyView } from '../reply.ts';
import { renderLanguageChoice, renderPageSizeChoice, renderSettings, scheduleButtons, scheduleLines } from '../views/settings.ts';
import type { Digest } from '../../store/watch-store.ts';

const ADMIN_STATUSES = new Set(['creator', 'administrator']);
/** Telegram's stand-in sender for a group admin who writes anonymously. */
const GROUP_ANONYMOUS_BOT = 1087968824;

/**
 * /lang, /pagesize and /settings. A group's language is set by the group's admins. `autolookup`:
 * a group's /autolookup, undefined where it does not apply (issue 30).
 */
export const createSettingsFeature = ({
  settings,
  defaultLanguage,
  autolookup,
  answers,
  digestOf,
}: {
  settings: SettingsStore;
  defaultLanguage: Locale;
  autolookup?: (chatId: number) => Promise<boolean | undefined>;
  /** A group's /answers mode (issue 32), undefined where it does not apply. */
  answers?: (chatId: number) => Promise<'private' | 'public'>;
  /** The chat's digest, where watches may be kept (else /settings leaves the digest out). */
  digestOf?: (chatId: number) => Promise<Digest | undefined> | undefined;
}) => {
  const feature = createFeature();
  const inGroup = (ctx: BotContext) => ctx.chat !== undefined && ctx.chat.type !== 'private';
  const isAdmin = async (ctx: BotContext) => {
    if (!ctx.chat || !ctx.from) return false;
    // Only an admin can write as the group itself; the anonymous sender has no membership to ask about.
    if (ctx.from.id === GROUP_ANONYMOUS_BOT) return ctx.message?.sender_chat?.id === ctx.chat.id;
    const member = await ctx.telegram.getChatMember(ctx.chat.id, ctx.from.id);
    return ADMIN_STATUSES.has(member.status);
  };

  feature.command('settings', async (ctx) => {
    const groupLocale = inGroup(ctx) ? await settings.chatLocale(ctx.chat.id) : undefined;
    // The user's own language, which the group's (if set) overrides in this chat.
    const locale = (await settings.user(ctx.from.id)).locale ?? resolveLocale(ctx.from.language_code, defaultLanguage);
    const reading = inGroup(ctx) ? await autolookup?.(ctx.chat.id) : undefined;
    const answering = inGroup(ctx) ? await answers?.(ctx.chat.id) : undefined;
    const view = renderSettings({ locale, pageSize: ctx.pageSize, groupLocale, inGroup: inGroup(ctx), autolookup: reading, answers: answering }, ctx.t);
    // The chat's time zone and digest (issue 33), with the buttons that change them.
    const digest = digestOf?.(ctx.chat.id);
    const withDigest = digest !== undefined;
    const schedule = scheduleLines({ timeZone: ctx.timeZone, digest: withDigest ? await digest : undefined, withDigest }, ctx.t);
    return replyView(ctx, { text: [view.text, ...schedule].join('\n'), keyboard: [...view.keyboard, ...scheduleButtons(withDigest, ctx.t)] });
  });

  feature.command('lang', async (ctx) => {
    if (!inGroup(ctx)) return replyView(ctx, renderLanguageChoice('user', ctx.t));
    if (!(await isAdmin(ctx))) return ctx.reply(ctx.t('lang.adminsOnly'), replyOptions(ctx));
    return replyView(ctx, renderLanguageChoice('chat', ctx.t));
  });

  feature.command('pagesize', (ctx) => replyView(ctx, renderPageSizeChoice(ctx.pageSize, ctx.t)));

  feature.use(
    onCallback('language', async (ctx, action) => {
      if (!ctx.from) return;
      if (action.scope === 'chat') {
        // Checked again on the press: anyone in the group can press the admin's buttons.
        if (!inGroup(ctx) || !(await isAdmin(ctx))) return ctx.answerOnce(ctx.t('lang.adminsOnly'), true);
        await settings.setChatLocale(ctx.chat!.id, action.locale);
      } else {
        await settings.setUserLocale(ctx.from.id, action.locale);
      }
      ctx.useLocale(action.locale);
      const name = ctx.t(`lang.names.${action.locale}`);
      await ctx.answerOnce(ctx.t('lang.set', { language: name }));
      await editView(ctx, { text: ctx.t('lang.set', { language: name }), keyboard: [] });
    }),
  );

  feature.use(
    onCallback('pageSize', async (ctx, action) => {
      if (!ctx.from) return;
      await settings.setUserPageSize(ctx.from.id, action.pageSize);
      await ctx.answerOnce(ctx.t('pagesize.set', { size: action.pageSize }));
      await editView(ctx, { text: ctx.t('pagesize.set', { size: action.pageSize }), keyboard: [] });
    }),
  );
  return feature;
};
