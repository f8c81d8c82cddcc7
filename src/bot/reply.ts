import type { BotContext } from './context.ts';

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
