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
