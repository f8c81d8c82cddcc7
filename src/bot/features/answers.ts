import type { Logger } from 'pino';
import type { Locale } from '../../i18n.ts';
import type { AnswerMode } from '../../store/store.ts';
import { callBotApi, TelegramError } from '../../telegram/telegraf/core.ts';
import type { AnswerModes } from '../answer-modes.ts';
import type { ResultsAnswer } from '../answer-results.ts';
import { unpackCallback, type CallbackAction } from '../callback-data/codec.ts';
import { rerunOf } from '../rerun.ts';
import { adminRefusal, type AdminCheck } from '../chat-admins.ts';
import { setGroupMenus } from '../commands-menu.ts';
import type { AnswerPlace, BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import { asker, type Lookups } from '../lookups.ts';
import { editView, pressedEphemeralId, replyOptions, replyView } from '../reply.ts';
import { whileTyping } from '../typing.ts';
import { renderLookup } from '../views/lookup.ts';
import { renderRecord } from '../views/record.ts';
import { renderRecordGone } from '../views/notices.ts';
import { recordIds, recordsOf } from '../views/resources.ts';

const PRIVATE_WORDS = new Set(['private', 'лично']);
const PUBLIC_WORDS = new Set(['public', 'всем']);
/** The commands whose answers a private-mode group keeps to the asker. */
const LOOKUP_COMMANDS = new Set(['order', 'spec', 'export']);
/** Presses that show a view of a lookup: someone other than the asker gets their own (public mode). */
const OWN_VIEW_ACTIONS = new Set<CallbackAction['type']>(['page', 'record', 'materials', 'lookup', 'openRecord']);
type Message = NonNullable<BotContext['message']>;

/** A message the answer mode governs: a lookup command, or no command at all (a mention, a reply, pasted numbers). */
const isLookupMessage = (message: Message, me: string): boolean => {
  const text = 'text' in message ? message.text : 'caption' in message ? (message.caption ?? '') : '';
  const command = /^\/([a-z0-9_]+)(?:@(\w+))?/i.exec(text);
  if (!command) return true;
  if (command[2] !== undefined && command[2].toLowerCase() !== me.toLowerCase()) return false;
  return LOOKUP_COMMANDS.has(command[1]!.toLowerCase());
};

/** Who asked for a public answer: the sender of the message it replies to (the command, the mention), when known. */
const askerOf = (ctx: BotContext): number | undefined => {
  const message = ctx.callbackQuery?.message;
  const replied = message !== undefined && 'reply_to_message' in message ? message.reply_to_message : undefined;
  return replied?.from !== undefined && !replied.from.is_bot ? replied.from.id : undefined;
};

/**
 * Issue 32: a group's answer mode and what follows from it. `/answers private|public` (лично|всем,
 * and its /settings button), a group admin's, kept in the store; in private mode the lookup commands
 * are the group's ephemeral commands. Before the lookup features, it decides where each answer
 * goes (ctx.answerPlace; reply.ts sends it): an ephemeral message for one user of a group where
 * one can go, else their private chat. In public mode, a press on a public answer by someone other
 * than the asker shows them their own view in its place, for them alone. Also `/start v…`, the
 * button of the note that runs a lookup in the private chat.
 */
export const createAnswersFeature = ({
  modes,
  isAdmin,
  defaultLanguage,
  logger,
  lookups,
  answer,
  now,
}: {
  modes: AnswerModes;
  isAdmin: AdminCheck;
  defaultLanguage: Locale;
  logger: Pick<Logger, 'warn'>;
  lookups: Lookups;
  answer: ResultsAnswer;
  now: () => Date;
}) => {
  const feature = createFeature();
  const said = new Set<string>();
  /** Why an answer for one user went to their private chat: said once per process and cause. */
  const fellBack = (cause: string, detail: Record<string, unknown> = {}) => {
    if (said.has(cause)) return;
    said.add(cause);
    logger.warn({ cause, ...detail }, `an answer for one user of a group goes to their private chat: ${cause}`);
  };

  const placeFor = async (ctx: BotContext): Promise<AnswerPlace | undefined> => {
    const { chat, from } = ctx;
    if (chat === undefined || from === undefined || from.is_bot || (chat.type !== 'group' && chat.type !== 'supergroup')) return undefined;
    const base = { groupId: chat.id, userId: from.id, fellBack };
    const query = ctx.callbackQuery;
    if (query !== undefined) {
      const pressed = pressedEphemeralId(ctx);
      if (pressed !== undefined) return { ...base, ephemeral: { callbackQueryId: query.id, editId: pressed } };
      const action = 'data' in query ? unpackCallback(query.data) : undefined;
      const askedBy = askerOf(ctx);
      if (action === undefined || !OWN_VIEW_ACTIONS.has(action.type) || askedBy === undefined || askedBy === from.id) return undefined;
      return { ...base, ephemeral: { callbackQueryId: query.id, replace: true }, publicly: true };
    }
    const message = ctx.message;
    if (message === undefined) return undefined;
    const ephemeralId = (message as { ephemeral_message_id?: number }).ephemeral_message_id;
    // A reply to an ephemeral message must be ephemeral, whatever the mode.
    if (ephemeralId !== undefined) return { ...base, ephemeral: { replyTo: ephemeralId } };
    if (!isLookupMessage(message, ctx.me) || (await modes.mode(chat.id)) !== 'private') return undefined;
    return base;
  };

  // Not async for an update outside a group (most of them): it is handed on at once.
  feature.use((ctx, next) => {
    const type = ctx.chat?.type;
    if (type !== 'group' && type !== 'supergroup') return next();
    return placeFor(ctx).then((place) => {
      if (place !== undefined) ctx.answerPlace = place;
      return next();
    });
  });

  /** Whether ephemeral messages can be used here: known, or (before 10.2) ruled out by the 404 of a method only newer servers have. */
  const ephemeralPossible = async (ctx: BotContext, chatId: number, userId: number): Promise<boolean> => {
    if (ctx.features.has('ephemeralMessages')) return true;
    if (!ctx.features.unknown('ephemeralMessages')) return false;
    try {
      // Id 0 is no message: a newer server refuses it with 400, an older one does not know the method.
      await callBotApi(ctx.telegram, 'deleteEphemeralMessage', { chat_id: chatId, receiver_user_id: userId, ephemeral_message_id: 0 });
    } catch (error) {
      if (error instanceof TelegramError && error.code === 404) {
        ctx.features.lacks('ephemeralMessages', { refused: 'deleteEphemeralMessage' });
        return false;
      }
      if (!(error instanceof TelegramError)) throw error;
    }
    return true;
  };

  /** Sets the mode; the group's menus change only when it does (Telegram keeps them across restarts). */
  const switchTo = async (ctx: BotContext, chatId: number, userId: number, mode: AnswerMode): Promise<string> => {
    const before = await modes.mode(chatId);
    const possible = mode === 'private' ? await ephemeralPossible(ctx, chatId, userId) : true;
    await modes.set(chatId, mode, userId);
    if (before !== mode) await setGroupMenus(ctx.telegram, chatId, mode, { defaultLanguage, ephemeral: possible });
    if (mode === 'public') return ctx.t('answers.setPublic');
    return possible ? ctx.t('answers.setPrivate') : `${ctx.t('answers.setPrivate')}\n\n${ctx.t('answers.olderServer')}`;
  };

  const stateOf = async (ctx: BotContext, chatId: number) => ctx.t((await modes.mode(chatId)) === 'private' ? 'answers.statePrivate' : 'answers.statePublic');

  feature.command('answers', async (ctx) => {
    if (ctx.chat.type === 'private') return ctx.reply(ctx.t('answers.groupsOnly'), replyOptions(ctx));
    const word = ctx.payload.trim().toLowerCase();
    const mode = PRIVATE_WORDS.has(word) ? 'private' : PUBLIC_WORDS.has(word) ? 'public' : undefined;
    if (mode === undefined) return ctx.reply(ctx.t('answers.usage', { state: await stateOf(ctx, ctx.chat.id) }), replyOptions(ctx));
    const admin = await isAdmin(ctx);
    if (admin !== 'admin') return ctx.reply(adminRefusal(admin, 'answers.adminsOnly', ctx), replyOptions(ctx));
    return ctx.reply(await switchTo(ctx, ctx.chat.id, ctx.from.id, mode), replyOptions(ctx));
  });

  feature.use(
    onCallback('answerMode', async (ctx, action) => {
      // Checked again on the press: anyone in the group can press the admin's buttons.
      if (!ctx.chat || !ctx.from || ctx.chat.type === 'private') return ctx.answerOnce();
      const admin = await isAdmin(ctx);
      if (admin !== 'admin') return ctx.answerOnce(adminRefusal(admin, 'answers.adminsOnly', ctx), true);
      const text = await switchTo(ctx, ctx.chat.id, ctx.from.id, action.mode);
      await ctx.answerOnce(ctx.t('answers.settings', { state: await stateOf(ctx, ctx.chat.id) }));
      await editView(ctx, { text, keyboard: [] });
    }),
  );

  // 📣 under an ephemeral answer: the view it shows, posted for everyone as today's answer.
  feature.use(
    onCallback('showPage', async (ctx, action) => {
      const { ref, limit, offset } = action;
      const results = await lookups.pressed(ctx, { ref, limit, offset, refresh: false }, { type: 'page', ref, limit, offset, refresh: true });
      if (!results || !ctx.chat) return;
      ctx.answerPlace = undefined;
      await replyView(ctx, action.offset === 0 ? await answer(ctx, results, action.ref) : renderLookup(results, action.ref, ctx.t, ctx.fmt, now()));
    }),
  );
  feature.use(
    onCallback('showRecord', async (ctx, action) => {
      const { ref, limit, offset, index: at, part, id } = action;
      const results = await lookups.pressed(ctx, { ref, limit, offset, refresh: false }, { type: 'record', ref, limit, offset, index: at, part, id, refresh: true }, { exact: true });
      if (!results || !ctx.chat) return;
      ctx.answerPlace = undefined;
      const index = recordIds(recordsOf(results)).indexOf(action.id);
      const view = index < 0 ? undefined : renderRecord(results, { index, part: action.part }, { list: action.ref }, ctx.t, ctx.fmt, now());
      await replyView(ctx, view ?? renderRecordGone({ ref, limit, offset }, ctx.t));
    }),
  );

  // The note's button: the lookup the group could not show this user, run in the private chat.
  feature.command('start', async (ctx, next) => {
    const ref = ctx.chat.type === 'private' ? rerunOf(ctx.payload.trim()) : undefined;
    if (ref === undefined) return next();
    const query = await lookups.resolve(ref);
    if (!query) return ctx.reply(ctx.t('errors.staleButton'), replyOptions(ctx));
    ctx.retry = { type: 'page', ref, limit: ctx.pageSize, offset: 0, refresh: true };
    const results = await whileTyping(ctx, lookups.fetchPage(query, ctx.pageSize, 0, asker(ctx, 'command')));
    return replyView(ctx, await answer(ctx, results, ref));
  });

  return feature;
};
