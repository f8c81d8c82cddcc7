import type { Logger } from 'pino';
import type { Access } from '../../access.ts';
import type { WatchStore } from '../../store/watch-store.ts';
import { isUnreachableChat } from '../../telegram/errors.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { renderOnboarding } from '../views/onboarding.ts';

/** A status in which the bot is in the group (a restricted member may still be in it). */
const isIn = (member: { status: string; is_member?: boolean }): boolean =>
  member.status === 'member' || member.status === 'administrator' || member.status === 'creator' || (member.status === 'restricted' && member.is_member === true);

/**
 * The bot's own membership of a group (`my_chat_member`): added, it posts once what it does, the
 * group's id and whether the group may use it, and the group's paused watches resume; removed,
 * the group's watches pause as a blocked chat's do (nothing is sent there) until it is back.
 */
export const createOnboardingFeature = ({ access, watches, logger, now }: { access: Pick<Access, 'isAllowedUser' | 'mayWatchIn'>; watches: Pick<WatchStore, 'pauseChat' | 'resumeChat'>; logger: Logger; now: () => Date }) => {
  const feature = createFeature();
  const onChange = async (ctx: BotContext, change: NonNullable<BotContext['myChatMember']>): Promise<void> => {
    const { chat } = change;
    if (chat.type !== 'group' && chat.type !== 'supergroup') return;
    const was = isIn(change.old_chat_member);
    const is = isIn(change.new_chat_member);
    if (was && !is) {
      await watches.pauseChat(chat.id, now().getTime());
      logger.info({ chatId: chat.id, by: change.from.id, status: change.new_chat_member.status }, 'removed from a group: its watches are paused');
      return;
    }
    if (was || !is) return;
    logger.info({ chatId: chat.id, by: change.from.id }, 'added to a group');
    if (await watches.resumeChat(chat.id)) logger.info({ chatId: chat.id }, 'watches resumed');
    try {
      await ctx.telegram.sendMessage(chat.id, renderOnboarding(chat.id, access.mayWatchIn(chat.id), ctx.t), { parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
    } catch (error) {
      // Added and removed at once, or added without the right to write: nobody to tell.
      if (!isUnreachableChat(error)) throw error;
      logger.info({ chatId: chat.id }, 'added to a group, but cannot write there');
    }
  };
  // Most updates are no change of the bot's membership: handed on without an async frame.
  feature.use((ctx: BotContext, next) => {
    const change = ctx.myChatMember;
    return change === undefined ? next() : onChange(ctx, change);
  });
  return feature;
};
