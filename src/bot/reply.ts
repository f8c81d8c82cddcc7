import type { BotContext } from './context.ts';
import { isMessageGone, isNotModified } from '../telegram/errors.ts';
import type { View } from '../telegram/view.ts';

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

export const replyView = (ctx: BotContext, view: View) =>
  ctx.reply(view.text, { ...replyOptions(ctx), reply_markup: { inline_keyboard: view.keyboard } });

/**
 * Shows a view in the message whose button was pressed; the same content again is no change. A
 * message deleted meanwhile (or no longer editable) gets the view as a new message instead.
 */
export const editView = async (ctx: BotContext, view: View): Promise<void> => {
  try {
    await ctx.editMessageText(view.text, {
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      reply_markup: { inline_keyboard: view.keyboard },
    });
  } catch (error) {
    // A double tap asks for what is already shown: nothing to change, nothing to say.
    if (isNotModified(error)) return;
    if (!isMessageGone(error)) throw error;
    await replyView(ctx, view);
  }
};
