import { TelegramError } from '../telegram/telegraf/core.ts';
import { createLru } from '../store/lru.ts';
import type { BotContext } from './context.ts';

// Whether the user of an update is an admin of its group, for what only admins may change (the
// group's time zone and digest). Telegram is asked with getChatMember; the answer is kept briefly
// (ADMIN_TTL_MS), so a burst of presses asks once, and a demoted admin loses the right soon.

export type AdminAnswer = 'admin' | 'notAdmin' | 'unknown';

const ADMIN_STATUSES = new Set(['creator', 'administrator']);
/** Telegram's stand-in sender for a group admin who writes anonymously. */
const GROUP_ANONYMOUS_BOT = 1087968824;
/** How long an answer is trusted. */
export const ADMIN_TTL_MS = 60_000;
const REMEMBERED = 10_000;

export const createAdminCheck = ({ now = Date.now }: { now?: () => number } = {}) => {
  const answers = createLru<string, { admin: boolean; at: number }>(REMEMBERED);
  /**
   * 'admin' in a private chat (its user decides alone); in a group what Telegram says, or
   * 'unknown' when it would not tell (a member list the bot may not read: Telegram answers 400 or
   * 403). A failure to reach Telegram at all goes to the error boundary like any other.
   */
  return async (ctx: BotContext): Promise<AdminAnswer> => {
    const chat = ctx.chat;
    const from = ctx.from;
    if (chat === undefined || chat.type === 'private') return 'admin';
    if (from === undefined) return 'notAdmin';
    // Only an admin can write as the group itself; the anonymous sender has no membership to ask about.
    if (from.id === GROUP_ANONYMOUS_BOT) return ctx.message?.sender_chat?.id === chat.id ? 'admin' : 'notAdmin';
    const key = `${chat.id}:${from.id}`;
    const known = answers.get(key);
    if (known !== undefined && now() - known.at < ADMIN_TTL_MS) return known.admin ? 'admin' : 'notAdmin';
    try {
      const member = await ctx.telegram.getChatMember(chat.id, from.id);
      const admin = ADMIN_STATUSES.has(member.status);
      answers.set(key, { admin, at: now() });
      return admin ? 'admin' : 'notAdmin';
    } catch (error) {
      if (error instanceof TelegramError && (error.code === 400 || error.code === 403)) return 'unknown';
      throw error;
    }
  };
};

export type AdminCheck = ReturnType<typeof createAdminCheck>;

/** What a refused user is told: only admins may, or Telegram would not say who the admins are. */
export const adminRefusal = (answer: Exclude<AdminAnswer, 'admin'>, adminsOnly: string, ctx: BotContext): string =>
  answer === 'unknown' ? ctx.t('timezone.adminsUnknown') : ctx.t(adminsOnly);
