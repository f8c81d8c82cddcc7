import type { Logger } from 'pino';
import type { Access } from '../access.ts';
import { createFormatter } from '../format.ts';
import { createTranslator, perLocale, resolveLocale, type Locale } from '../i18n.ts';
import type { AccessRequest, AccessStore, Decision } from '../store/access-store.ts';
import type { SettingsStore } from '../store/store.ts';
import { isChatNotFound, isMessageGone, isNotModified, isUnreachableChat } from '../telegram/errors.ts';
import type { View } from '../telegram/view.ts';
import { callBotApi } from '../telegram/telegraf/core.ts';
import { withFittedKeyboard } from '../telegram/fit.ts';
import type { BotContext } from './context.ts';
import { auditAccess } from './access-audit.ts';
import { fullName, personName, renderAccessRequest, renderDecidedRequest } from './views/access.ts';
import { escapeHtml } from './views/common/html.ts';

/** A stranger may ask once in this time, whatever the answer. */
export const REQUEST_EVERY_MS = 86_400_000;

export type AccessRequestsDeps = {
  store: AccessStore;
  access: Access;
  /** The admins' own languages: each gets the request in theirs. */
  settings: Pick<SettingsStore, 'user'>;
  logger: Logger;
  defaultLanguage: Locale;
  timeZone: string;
  now: () => number;
};

export type AccessRequests = ReturnType<typeof createAccessRequests>;

/**
 * Strangers' requests for access: sent to every admin with Allow / Deny; the first admin to
 * press decides (a compare-and-set in the store, so across replicas too), every admin's copy is
 * edited to say who decided, and the stranger is told.
 */
export const createAccessRequests = ({ store, access, settings, logger, defaultLanguage, timeZone, now }: AccessRequestsDeps) => {
  const translators = perLocale(createTranslator);
  const formatters = perLocale((locale) => createFormatter(locale, timeZone));
  const localeOf = async (userId: number): Promise<Locale> => (await settings.user(userId)).locale ?? defaultLanguage;

  const send = async (ctx: BotContext, chatId: number, view: View) =>
    withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
      callBotApi(ctx.telegram, 'sendMessage', { chat_id: chatId, text: view.text, parse_mode: 'HTML', link_preview_options: { is_disabled: true }, reply_markup: { inline_keyboard: keyboard } }),
    );

  /** Each admin's copy edited to the decision; one that is gone or cannot change any more is left. */
  const editCopies = async (ctx: BotContext, request: AccessRequest) => {
    const when = new Date(request.decidedAt ?? now());
    for (const { chatId, messageId } of await store.requestMessages(request.id)) {
      const locale = await localeOf(chatId);
      const view = renderDecidedRequest(request, escapeHtml(request.decidedByName ?? String(request.decidedBy)), formatters[locale].dateTime(when, new Date(now())), translators[locale]);
      try {
        await ctx.telegram.editMessageText(chatId, messageId, undefined, view.text, { parse_mode: 'HTML', reply_markup: { inline_keyboard: [] } });
      } catch (error) {
        if (!isNotModified(error) && !isMessageGone(error) && !unreachable(error)) throw error;
      }
    }
  };

  /** A chat the bot cannot write to: blocked, left, or never started (Telegram says 403 or "chat not found"). */
  const unreachable = (error: unknown) => isUnreachableChat(error) || isChatNotFound(error);

  /** The stranger hears the decision where they can: their private chat, else the group they asked in. */
  const tellRequester = async (ctx: BotContext, request: AccessRequest) => {
    const t = translators[resolveLocale(request.languageCode, defaultLanguage)];
    const granted = request.decision === 'allow';
    try {
      await send(ctx, request.userId, { text: t(granted ? 'access.granted' : 'access.declined'), keyboard: [] });
      return;
    } catch (error) {
      if (!unreachable(error)) throw error;
    }
    if (request.chatId === request.userId) {
      logger.info({ userId: request.userId }, 'the requester cannot be told: they blocked the bot');
      return;
    }
    try {
      await send(ctx, request.chatId, { text: t(granted ? 'access.grantedInChat' : 'access.declinedInChat', { name: personName(request) }), keyboard: [] });
    } catch (error) {
      if (!unreachable(error)) throw error;
      logger.info({ userId: request.userId, chatId: request.chatId }, 'the requester cannot be told: the bot is out of the group');
    }
  };

  return {
    /** A stranger pressed Request access (the access middleware lets only this press through). */
    async open(ctx: BotContext): Promise<void> {
      const from = ctx.from;
      if (!from) return;
      const chat = ctx.chat;
      const opened = await store.openRequest(
        {
          userId: from.id,
          chatId: chat?.id ?? from.id,
          ...(chat && 'title' in chat ? { chatTitle: chat.title } : {}),
          name: fullName(from),
          ...(from.username ? { username: from.username } : {}),
          ...(from.language_code ? { languageCode: from.language_code } : {}),
        },
        now(),
        REQUEST_EVERY_MS,
      );
      if (!opened.ok) {
        const at = new Date(opened.lastAt);
        const current = new Date(now());
        await ctx.answerOnce(ctx.t('access.requestTooSoon', { when: ctx.fmt.dateTime(at, current), next: ctx.fmt.dateTime(new Date(opened.lastAt + REQUEST_EVERY_MS), current) }), true);
        return;
      }
      let told = 0;
      for (const adminId of access.options.adminIds) {
        try {
          const message = await send(ctx, adminId, renderAccessRequest(opened.request, translators[await localeOf(adminId)]));
          await store.addRequestMessage(opened.request.id, { chatId: adminId, messageId: message.message_id });
          told += 1;
        } catch (error) {
          // An admin who blocked the bot (or never started it) is skipped: the others decide.
          if (!unreachable(error)) throw error;
          logger.info({ adminId, requestId: opened.request.id }, 'an admin cannot be sent the access request: they blocked the bot or never started it');
        }
      }
      logger.info({ audit: true, userId: from.id, chatId: chat?.id, requestId: opened.request.id, admins: told }, 'access requested');
      await ctx.answerOnce(told > 0 ? ctx.t('access.requestSent') : ctx.t('access.requestNobody', { id: from.id }), true);
    },

    /** An admin pressed Allow or Deny; anyone else is refused, and the first decision stands. */
    async decide(ctx: BotContext, requestId: number, decision: Decision): Promise<void> {
      const from = ctx.from;
      if (!from) return;
      if (!access.isAdmin(from.id)) {
        const request = await store.request(requestId);
        auditAccess(logger, { by: from.id, action: decision, kind: 'user', id: request?.userId, outcome: 'refused', reason: 'not an admin' });
        await ctx.answerOnce(ctx.t('admin.onlyAdmins'), true);
        return;
      }
      // Named as the other admins will read it: plain text in the store, escaped when shown.
      const name = from.username ? `${fullName(from)} (@${from.username})` : fullName(from);
      const result = await store.decide(requestId, decision, { id: from.id, name }, now());
      if (!result.won) {
        const request = result.request;
        auditAccess(logger, { by: from.id, action: decision, kind: 'user', id: request?.userId, outcome: 'refused', reason: request ? 'already decided' : 'no such request', requestId });
        if (!request?.decision) {
          await ctx.answerOnce(ctx.t('admin.request.gone'), true);
          return;
        }
        const admin = request.decidedByName ?? String(request.decidedBy);
        await ctx.answerOnce(ctx.t(request.decision === 'allow' ? 'admin.request.alreadyAllowed' : 'admin.request.alreadyDenied', { admin }), true);
        await editCopies(ctx, request);
        return;
      }
      const { request } = result;
      if (decision === 'allow') {
        await store.allowUser({ id: request.userId, by: from.id, at: now(), label: request.username ? `${request.name} (@${request.username})` : request.name });
      }
      auditAccess(logger, { by: from.id, action: decision, kind: 'user', id: request.userId, outcome: decision === 'allow' ? 'granted' : 'refused', reason: 'access request', requestId });
      await ctx.answerOnce(ctx.t(decision === 'allow' ? 'admin.request.decidedAllow' : 'admin.request.decidedDeny'));
      await editCopies(ctx, request);
      await tellRequester(ctx, request);
    },
  };
};
