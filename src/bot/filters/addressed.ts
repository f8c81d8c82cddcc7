import type { BotContext } from '../context.ts';

/**
 * A command for this bot: `/cmd …` or `/cmd@<this bot> …` (Telegram matches usernames in any
 * case). `/cmd@other_bot` belongs to another bot in the group, whatever this bot thinks of it.
 */
export const isCommandForMe = (ctx: BotContext): boolean => {
  const message = ctx.message;
  if (!message || !('text' in message) || !message.text.startsWith('/')) return false;
  const word = message.text.split(/\s/, 1)[0] ?? '';
  const at = word.indexOf('@');
  return at === -1 || word.slice(at + 1).toLowerCase() === ctx.me.toLowerCase();
};

type Entity = { type: string; offset: number; length: number; user?: { id: number } };

/** The text of a message, or its caption (a photo, a document), with their entities. */
export const textOf = (ctx: BotContext): { text: string; entities: readonly Entity[] } | undefined => {
  const message = ctx.message;
  if (!message) return undefined;
  if ('text' in message) return { text: message.text, entities: message.entities ?? [] };
  if ('caption' in message && typeof message.caption === 'string') return { text: message.caption, entities: message.caption_entities ?? [] };
  return undefined;
};

/** `@this_bot` in a message (Telegram marks it as a mention; usernames compare in any case). */
export const mentionsMe = (ctx: BotContext): boolean => {
  const found = textOf(ctx);
  const me = `@${ctx.me}`.toLowerCase();
  return (found?.entities ?? []).some(
    (entity) =>
      (entity.type === 'mention' && found!.text.slice(entity.offset, entity.offset + entity.length).toLowerCase() === me) ||
      (entity.type === 'text_mention' && entity.user?.id === ctx.botInfo?.id),
  );
};

/** A reply to one of this bot's messages. */
export const repliesToMe = (ctx: BotContext): boolean => {
  const replied = ctx.message && 'reply_to_message' in ctx.message ? ctx.message.reply_to_message : undefined;
  return replied?.from !== undefined && replied.from.id === ctx.botInfo?.id;
};

/**
 * A message meant for this bot: a command for it, anything written in its private chat, and in a
 * group a message that mentions it or replies to it. A stranger's is refused, not ignored.
 */
export const isAddressedToMe = (ctx: BotContext): boolean => {
  if (isCommandForMe(ctx)) return true;
  if (textOf(ctx) === undefined) return false;
  return ctx.chat?.type === 'private' || mentionsMe(ctx) || repliesToMe(ctx);
};
