import type { AnswerPlace, BotContext } from './context.ts';
import { isChatNotFound, isMessageGone, isMisaddressed, isNotModified, isUnreachableChat } from '../telegram/errors.ts';
import { callBotApi, callBotApiForEffect, TelegramError, type BotApiParams, type InlineQueryResult } from '../telegram/telegraf/core.ts';
import { fitHtml, isButtonWithoutAction, isMissingMethod, withFittedKeyboard } from '../telegram/fit.ts';
import { isRichView, type MessageView, type RichView, type View } from '../telegram/view.ts';
import { packCallback } from './callback-data/codec.ts';

/**
 * How every answer is sent: HTML, no link previews, and in a group as a reply to the command
 * (Telegraf keeps the forum topic). A deleted command message does not stop the answer.
 */
export const replyOptions = (ctx: BotContext) => {
  const message = ctx.message;
  const inGroup = ctx.chat?.type === 'group' || ctx.chat?.type === 'supergroup';
  const options = {
    parse_mode: 'HTML' as const,
    link_preview_options: { is_disabled: true },
    ...(inGroup && message
      ? { reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true } }
      : {}),
  };
  const place = ctx.answerPlace;
  // A reply to an ephemeral command must itself be ephemeral (botapi-10.md §4.4); Telegraf's types (7.1) know no such fields.
  if (place?.ephemeral === undefined || !ephemeralUsable(ctx)) return options;
  const { chat_id: _group, ...ephemeral } = ephemeralTarget(place, place.ephemeral);
  return { parse_mode: options.parse_mode, link_preview_options: options.link_preview_options, ...ephemeral } as unknown as typeof options;
};

/** The chat, its forum topic (as Telegraf's reply finds it) and the reply to the command: where an answer goes. */
const placeOf = (ctx: BotContext) => {
  const { reply_parameters } = replyOptions(ctx);
  const message = ctx.msg;
  const topic = message && 'is_topic_message' in message && message.is_topic_message ? message.message_thread_id : undefined;
  return { chat_id: ctx.chat!.id, ...(topic === undefined ? {} : { message_thread_id: topic }), ...(reply_parameters ? { reply_parameters } : {}) };
};

/** The message a press came from, to edit: a chat message or an inline one. */
const targetOf = (ctx: BotContext) =>
  ctx.inlineMessageId !== undefined && ctx.msgId === undefined ? { inline_message_id: ctx.inlineMessageId } : { chat_id: ctx.chat!.id, message_id: ctx.msgId! };

/** A rich message (Message.rich_message, 10.1): Telegram turns it into no text message, nor a text message into one. */
const pressedRich = (ctx: BotContext): boolean => {
  const message = ctx.callbackQuery?.message;
  return message !== undefined && 'rich_message' in message;
};

const NO_PREVIEW = { is_disabled: true };

/** A chat to send to: the update's (placeOf), or another one (the user's private chat). */
type Where = ReturnType<typeof placeOf> | { chat_id: number };

const sendHtml = (ctx: BotContext, view: View, where: Where = placeOf(ctx)) =>
  withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
    callBotApiForEffect(ctx.telegram, 'sendMessage', {
      ...where,
      text: fitHtml(view.text, ctx.features),
      parse_mode: 'HTML',
      link_preview_options: NO_PREVIEW,
      reply_markup: { inline_keyboard: keyboard },
    }),
  );

const editHtml = (ctx: BotContext, view: View) =>
  withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
    callBotApiForEffect(ctx.telegram, 'editMessageText', {
      ...targetOf(ctx),
      text: fitHtml(view.text, ctx.features),
      parse_mode: 'HTML',
      link_preview_options: NO_PREVIEW,
      reply_markup: { inline_keyboard: keyboard },
    }),
  );

const richMessage = (ctx: BotContext, view: RichView): BotApiParams<'sendRichMessage'>['rich_message'] => ({ html: fitHtml(view.rich, ctx.features) });

/**
 * Sends a rich view where the server has rich messages. One it does not have (404: an older
 * server) is off for the process; one Telegram refuses for its content is logged by its label; in
 * both cases the HTML view goes instead, and the user sees no error.
 */
const sendRich = async (ctx: BotContext, view: RichView, send: () => Promise<unknown>, where: Where = placeOf(ctx)): Promise<void> => {
  try {
    await send();
  } catch (error) {
    // Where the message goes is wrong, not what it holds: the HTML view would fail there too.
    if (isNotModified(error) || isMessageGone(error) || isMisaddressed(error)) throw error;
    if (isMissingMethod(error)) ctx.features.lacks('richMessages', { refused: 'sendRichMessage' });
    else if (error instanceof TelegramError && error.code === 400) ctx.features.refused(view.label, { code: error.code, description: error.response.description });
    else throw error;
    await sendHtml(ctx, view.fallback(), where);
  }
};

/** A new message in `where`: rich when the view is and the server has them, else HTML. */
const sendView = async (ctx: BotContext, view: MessageView, where: Where): Promise<void> => {
  if (!isRichView(view)) return void (await sendHtml(ctx, view, where));
  if (!ctx.features.has('richMessages')) return void (await sendHtml(ctx, view.fallback(), where));
  await sendRich(
    ctx,
    view,
    () =>
      withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
        callBotApiForEffect(ctx.telegram, 'sendRichMessage', { ...where, rich_message: richMessage(ctx, view), reply_markup: { inline_keyboard: keyboard } }),
      ),
    where,
  );
};

/** A new message: rich when the view is and the server has them, else HTML; for one user of a group where the update says so (issue 32). */
export const replyView = async (ctx: BotContext, view: MessageView): Promise<void> => {
  if (ctx.answerPlace !== undefined) return placeView(ctx, ctx.answerPlace, view, () => replyView(ctx, view));
  await sendView(ctx, view, placeOf(ctx));
};

// ── Answers for one user of a group (issue 32; botapi-10.md §4) ─────────────────────────────────

type Ephemeral = NonNullable<AnswerPlace['ephemeral']>;

/** The ephemeral message a press came from (message_id 0 and its ephemeral_message_id), else undefined. */
export const pressedEphemeralId = (ctx: BotContext): number | undefined =>
  (ctx.callbackQuery?.message as { ephemeral_message_id?: number } | undefined)?.ephemeral_message_id;

/** Ephemeral messages are known to this server, or not yet ruled out (then tried in a way an older server refuses loudly). */
const ephemeralUsable = (ctx: BotContext): boolean => ctx.features.has('ephemeralMessages') || ctx.features.unknown('ephemeralMessages');

/** Where an ephemeral message goes: the group, its receiver, and the action that makes it eligible. */
const ephemeralTarget = (place: AnswerPlace, ephemeral: Ephemeral) => ({
  chat_id: place.groupId,
  ephemeral_message_parameters: {
    receiver_user_id: place.userId,
    ...(ephemeral.callbackQueryId === undefined ? {} : { callback_query_id: ephemeral.callbackQueryId }),
    ...(ephemeral.replace === true ? { replace_callback_query_message: true } : {}),
  },
  ...(ephemeral.replyTo === undefined ? {} : { reply_parameters: { ephemeral_message_id: ephemeral.replyTo } }),
});

/** What Telegram answers where an ephemeral message cannot go: an older server (404, or a refused probe), a window passed, a non-member. */
const isEphemeralRefused = (error: unknown): boolean => error instanceof TelegramError && (error.code === 400 || error.code === 404);

/** An ephemeral message the server would not take: the private chat from now on for this update; an older server, for the process. */
const ephemeralRefused = (ctx: BotContext, place: AnswerPlace, error: unknown): void => {
  const description = error instanceof TelegramError ? error.response.description : undefined;
  if (isMissingMethod(error) || isButtonWithoutAction(error)) {
    ctx.features.lacks('ephemeralMessages', { refused: 'an ephemeral message' });
    place.fellBack('older Bot API server');
  } else {
    place.fellBack('Telegram refused an ephemeral message', { description });
  }
  place.ephemeral = undefined;
};

/**
 * A disabled button (10.3) proves the server while it is unproven: a server older than 10.3 reads
 * no action in it and refuses the whole message (botapi-10.md §2), where it would otherwise drop
 * ephemeral_message_parameters and post the message for everyone (§4.7).
 */
const PROBE_KEYBOARD = [[{ text: '⏳', disabled: {} }]];

/** The ephemeral "Looking…": sent at once, it keeps the 15-second window however long the portal takes. */
const sendLooking = async (ctx: BotContext, place: AnswerPlace, ephemeral: Ephemeral): Promise<number | undefined> => {
  const proving = !ctx.features.has('ephemeralMessages');
  const sent = await callBotApi(ctx.telegram, 'sendMessage', {
    ...ephemeralTarget(place, ephemeral),
    text: ctx.t('answers.looking'),
    ...(proving ? { reply_markup: { inline_keyboard: PROBE_KEYBOARD } } : {}),
  });
  if (proving) {
    ctx.features.confirm('ephemeralMessages');
    ctx.features.confirm('disabledButtons');
  }
  return sent.ephemeral_message_id;
};

/** Before a portal call: the "Looking…" of an ephemeral answer still to be sent (not for a press on one: that one is edited). */
export const startLooking = (ctx: BotContext): void => {
  const place = ctx.answerPlace;
  const ephemeral = place?.ephemeral;
  if (place === undefined || ephemeral === undefined || ephemeral.editId !== undefined || ephemeral.placeholder !== undefined || !ephemeralUsable(ctx)) return;
  ephemeral.placeholder = sendLooking(ctx, place, ephemeral).catch((error: unknown) => {
    if (isEphemeralRefused(error)) ephemeralRefused(ctx, place, error);
    return undefined;
  });
};

const editEphemeral = (ctx: BotContext, place: AnswerPlace, ephemeralId: number, view: View) =>
  withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
    callBotApi(ctx.telegram, 'editEphemeralMessageText', {
      chat_id: place.groupId,
      receiver_user_id: place.userId,
      ephemeral_message_id: ephemeralId,
      text: fitHtml(view.text, ctx.features),
      parse_mode: 'HTML',
      link_preview_options: NO_PREVIEW,
      reply_markup: { inline_keyboard: keyboard },
    }),
  );

/** 📣 under an ephemeral view of a page or a record (the one this update fetched): it posts that view for everyone. */
const showRow = (ctx: BotContext): View['keyboard'] => {
  const shown = ctx.answerPlace?.plain === true ? undefined : ctx.retry;
  const text = ctx.t('answers.showAll');
  if (shown?.type === 'page') return [[{ text, callback_data: packCallback({ type: 'showPage', ref: shown.ref, limit: shown.limit, offset: shown.offset }) }]];
  if (shown?.type === 'record') {
    const { ref, limit, offset, index, part, id } = shown;
    return [[{ text, callback_data: packCallback({ type: 'showRecord', ref, limit, offset, index, part, id }) }]];
  }
  return [];
};

/** The view in the user's ephemeral message: the one pressed or the "Looking…" edited, else a new one; false when none can be. */
const ephemeralView = async (ctx: BotContext, place: AnswerPlace, ephemeral: Ephemeral, shown: View): Promise<boolean> => {
  const view = { ...shown, keyboard: [...shown.keyboard, ...showRow(ctx)] };
  const placeholder = ephemeral.placeholder === undefined ? undefined : await ephemeral.placeholder;
  if (place.ephemeral === undefined) return false;
  ephemeral.placeholder = undefined;
  const target = ephemeral.editId ?? placeholder;
  if (target !== undefined) {
    try {
      await editEphemeral(ctx, place, target, view);
      // Later answers of this update go in the same message only when it is the one pressed.
      return true;
    } catch (error) {
      if (isNotModified(error)) return true;
      if (!isMessageGone(error)) throw error;
      // Expired, or unknown to the server now: a new one, if the window still allows it.
      ephemeral.editId = undefined;
    }
  }
  if (ephemeral.callbackQueryId === undefined && ephemeral.replyTo === undefined) return false;
  if (!ctx.features.has('ephemeralMessages')) {
    const id = await sendLooking(ctx, place, ephemeral);
    if (id === undefined) return false;
    await editEphemeral(ctx, place, id, view);
    return true;
  }
  await withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
    callBotApi(ctx.telegram, 'sendMessage', {
      ...ephemeralTarget(place, ephemeral),
      text: fitHtml(view.text, ctx.features),
      parse_mode: 'HTML',
      link_preview_options: NO_PREVIEW,
      reply_markup: { inline_keyboard: keyboard },
    }),
  );
  return true;
};

/**
 * An answer for one user of a group: ephemeral where it can be, else in their private chat with
 * the bot; if they never started it, one note in the group that names no record, with a button
 * that runs the same lookup there. Never the answer itself for everyone.
 */
const placeView = async (ctx: BotContext, place: AnswerPlace, view: MessageView, publicly: () => Promise<void>): Promise<void> => {
  const ephemeral = place.ephemeral;
  if (ephemeral !== undefined && ephemeralUsable(ctx)) {
    try {
      if (await ephemeralView(ctx, place, ephemeral, isRichView(view) ? view.fallback() : view)) return;
      if (place.ephemeral !== undefined) place.fellBack('the 15-second window of an ephemeral answer passed');
    } catch (error) {
      if (!isEphemeralRefused(error)) throw error;
      ephemeralRefused(ctx, place, error);
    }
  } else if (ephemeral !== undefined && place.publicly !== true) {
    place.fellBack('older Bot API server');
  }
  // Another user's view of a public answer (public mode): where it cannot be theirs alone, the public message as before.
  if (place.publicly === true) {
    ctx.answerPlace = undefined;
    return publicly();
  }
  try {
    await sendView(ctx, view, { chat_id: place.userId });
  } catch (error) {
    if (!isUnreachableChat(error) && !isChatNotFound(error)) throw error;
    await noteStartFirst(ctx, place);
  }
};

/** The user's private chat cannot be written to (never started, or blocked): one note in the group, naming no record, with the chat's /start button. */
const noteStartFirst = async (ctx: BotContext, place: AnswerPlace): Promise<void> => {
  place.fellBack('the user has not started the bot');
  if (place.noted === true || place.quiet === true) return;
  place.noted = true;
  const command = ctx.message;
  await callBotApi(ctx.telegram, 'sendMessage', {
    chat_id: place.groupId,
    text: ctx.t('answers.startFirst'),
    reply_markup: { inline_keyboard: [[{ text: ctx.t('answers.openChat'), url: `https://t.me/${ctx.me}?start=${place.rerun ?? 'answers'}` }]] },
    ...(command !== undefined && command.message_id > 0 ? { reply_parameters: { message_id: command.message_id, allow_sending_without_reply: true } } : {}),
  });
};

/** Whether the user's private chat takes a file now (an export goes there): if not, the note in the group. */
export const reachPrivateChat = async (ctx: BotContext, place: AnswerPlace): Promise<boolean> => {
  try {
    await callBotApi(ctx.telegram, 'sendChatAction', { chat_id: place.userId, action: 'upload_document' });
    return true;
  } catch (error) {
    if (!isUnreachableChat(error) && !isChatNotFound(error)) throw error;
    await noteStartFirst(ctx, place);
    return false;
  }
};

/**
 * Shows a view in the message whose button was pressed; the same content again is no change. A
 * message deleted meanwhile (or no longer editable) gets the view as a new message instead, and
 * so does a message of the other kind: a rich view pressed for on a text message (a record opened
 * from a results page) comes as a message of its own, the HTML view of a rich message too.
 */
export const editView = async (ctx: BotContext, view: MessageView): Promise<void> => {
  if (ctx.answerPlace !== undefined) return placeView(ctx, ctx.answerPlace, view, () => editView(ctx, view));
  const rich = isRichView(view) && ctx.features.has('richMessages') ? view : undefined;
  const html = isRichView(view) ? undefined : view;
  try {
    if (rich !== undefined && pressedRich(ctx)) {
      return await sendRich(ctx, rich, () =>
        withFittedKeyboard(rich.keyboard, ctx.features, (keyboard) =>
          callBotApiForEffect(ctx.telegram, 'editMessageText', { ...targetOf(ctx), rich_message: richMessage(ctx, rich), reply_markup: { inline_keyboard: keyboard } }),
        ),
      );
    }
    if (rich !== undefined || pressedRich(ctx)) return await replyView(ctx, view);
    await editHtml(ctx, html ?? (view as RichView).fallback());
  } catch (error) {
    // A double tap asks for what is already shown: nothing to change, nothing to say.
    if (isNotModified(error)) return;
    if (!isMessageGone(error)) throw error;
    await replyView(ctx, view);
  }
};

/** Only the keyboard of the pressed message changes; a double tap or a message deleted meanwhile is nothing to do. */
export const editKeyboard = async (ctx: BotContext, keyboard: View['keyboard']): Promise<void> => {
  const place = ctx.answerPlace;
  const ephemeralId = place?.ephemeral?.editId;
  try {
    if (place !== undefined && ephemeralId !== undefined) {
      return void (await withFittedKeyboard(keyboard, ctx.features, (fitted) =>
        callBotApi(ctx.telegram, 'editEphemeralMessageReplyMarkup', { chat_id: place.groupId, receiver_user_id: place.userId, ephemeral_message_id: ephemeralId, reply_markup: { inline_keyboard: fitted } }),
      ));
    }
    await withFittedKeyboard(keyboard, ctx.features, (fitted) => callBotApi(ctx.telegram, 'editMessageReplyMarkup', { ...targetOf(ctx), reply_markup: { inline_keyboard: fitted } }));
  } catch (error) {
    if (!isNotModified(error) && !isMessageGone(error)) throw error;
  }
};

/** Answers an inline query, with results as the Bot API has them now (rich ones included). */
export const answerInline = (ctx: BotContext, results: InlineQueryResult[], extra: Omit<BotApiParams<'answerInlineQuery'>, 'inline_query_id' | 'results'>) =>
  callBotApi(ctx.telegram, 'answerInlineQuery', { inline_query_id: ctx.inlineQuery!.id, results, ...extra });
