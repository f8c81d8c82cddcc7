import type { BotContext } from './context.ts';

// Whether the sender of an update is an admin of its group, as Telegram says (getChatMember),
// remembered briefly: an admin who turns a setting on and off asks Telegram once.

const ADMIN_STATUSES = new Set(['creator', 'administrator']);
/** Telegram's stand-in sender for a group admin who writes anonymously. */
const GROUP_ANONYMOUS_BOT = 1087968824;
/** How long an answer is reused: a demoted admin keeps the right at most this long. */
export const ADMIN_CACHE_MS = 60_000;
const MAX_REMEMBERED = 10_000;

export type AdminCheck = (ctx: BotContext) => Promise<boolean>;

export const createAdminCheck = ({ now, ttlMs = ADMIN_CACHE_MS }: { now: () => number; ttlMs?: number }): AdminCheck => {
  const remembered = new Map<string, { admin: boolean; until: number }>();
  return async (ctx) => {
    if (!ctx.chat || !ctx.from || ctx.chat.type === 'private') return false;
    // Only an admin can write as the group itself; the anonymous sender has no membership to ask about.
    if (ctx.from.id === GROUP_ANONYMOUS_BOT) return ctx.message?.sender_chat?.id === ctx.chat.id;
    const key = `${ctx.chat.id}:${ctx.from.id}`;
    const known = remembered.get(key);
    if (known !== undefined && known.until > now()) return known.admin;
    const member = await ctx.telegram.getChatMember(ctx.chat.id, ctx.from.id);
    const admin = ADMIN_STATUSES.has(member.status);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(key, { admin, until: now() + ttlMs });
    return admin;
  };
};
