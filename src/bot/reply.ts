import type { BotContext } from './context.ts';
import { isChatNotFound, isMessageGone, isNotModified } from '../telegram/errors.ts';
import { callBotApi, TelegramError, type BotApiParams, type InlineQueryResult } from '../telegram/telegraf/core.ts';
import { fitHtml, isMissingMethod, withFittedKeyboard } from '../telegram/fit.ts';
import { isRichView, type MessageView, type RichView, type View } from '../telegram/view.ts';

/**
 * How every answer is sent: HTML, no link previews, and in a group as a reply to the command
 * (Telegraf keeps the forum topic). A deleted command message does not stop the answer.
 */
export const replyOptions = (ctx: BotContext) => {
  const message = ctx.message;
  const inGroup = ctx.chat?.type === 'group' || ctx.chat?.type === 'supergroup';
  return {
    parse_mode: 'HTML' as const,
    link_preview_options: { is_disabled: true },
    ...(inGroup && message
      ? { reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true } }
      : {}),
  };
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

const describedAs = (error: unknown): string => (error instanceof TelegramError ? (error.response.description ?? '') : '');

const sendHtml = (ctx: BotContext, view: View) =>
  withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
    callBotApi(ctx.telegram, 'sendMessage', {
      ...placeOf(ctx),
      text: fitHtml(view.text, ctx.features),
      parse_mode: 'HTML',
      link_preview_options: NO_PREVIEW,
      reply_markup: { inline_keyboard: keyboard },
    }),
  );

const editHtml = (ctx: BotContext, view: View) =>
  withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
    callBotApi(ctx.telegram, 'editMessageText', {
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
const sendRich = async (ctx: BotContext, view: RichView, send: () => Promise<unknown>): Promise<void> => {
  try {
    await send();
  } catch (error) {
    // Where the message goes is wrong, not what it holds: the HTML view would fail there too.
    if (isNotModified(error) || isMessageGone(error) || isChatNotFound(error) || /thread not found|rights/i.test(describedAs(error))) throw error;
    if (isMissingMethod(error)) ctx.features.lacks('richMessages', { refused: 'sendRichMessage' });
    else if (error instanceof TelegramError && error.code === 400) ctx.features.refused(view.label, { code: error.code, description: error.response.description });
    else throw error;
    await sendHtml(ctx, view.fallback());
  }
};

/** A new message: rich when the view is and the server has them, else HTML. */
export const replyView = async (ctx: BotContext, view: MessageView): Promise<void> => {
  if (!isRichView(view)) return void (await sendHtml(ctx, view));
  if (!ctx.features.has('richMessages')) return void (await sendHtml(ctx, view.fallback()));
  await sendRich(ctx, view, () =>
    withFittedKeyboard(view.keyboard, ctx.features, (keyboard) =>
      callBotApi(ctx.telegram, 'sendRichMessage', { ...placeOf(ctx), rich_message: richMessage(ctx, view), reply_markup: { inline_keyboard: keyboard } }),
    ),
  );
};

/**
 * Shows a view in the message whose button was pressed; the same content again is no change. A
 * message deleted meanwhile (or no longer editable) gets the view as a new message instead, and
 * so does a message of the other kind: a rich view pressed for on a text message (a record opened
 * from a results page) comes as a message of its own, the HTML view of a rich message too.
 */
export const editView = async (ctx: BotContext, view: MessageView): Promise<void> => {
  const rich = isRichView(view) && ctx.features.has('richMessages') ? view : undefined;
  const html = isRichView(view) ? undefined : view;
  try {
    if (rich !== undefined && pressedRich(ctx)) {
      return await sendRich(ctx, rich, () =>
        withFittedKeyboard(rich.keyboard, ctx.features, (keyboard) =>
          callBotApi(ctx.telegram, 'editMessageText', { ...targetOf(ctx), rich_message: richMessage(ctx, rich), reply_markup: { inline_keyboard: keyboard } }),
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
  try {
    await withFittedKeyboard(keyboard, ctx.features, (fitted) => callBotApi(ctx.telegram, 'editMessageReplyMarkup', { ...targetOf(ctx), reply_markup: { inline_keyboard: fitted } }));
  } catch (error) {
    if (!isNotModified(error) && !isMessageGone(error)) throw error;
  }
};

/** Answers an inline query, with results as the Bot API has them now (rich ones included). */
export const answerInline = (ctx: BotContext, results: InlineQueryResult[], extra: Omit<BotApiParams<'answerInlineQuery'>, 'inline_query_id' | 'results'>) =>
  callBotApi(ctx.telegram, 'answerInlineQuery', { inline_query_id: ctx.inlineQuery!.id, results, ...extra });
