import type { Access } from '../../access.ts';
import type { AutolookupSwitch } from '../autolookup-switch.ts';
import { adminRefusal, type AdminCheck } from '../chat-admins.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import { editView, replyOptions } from '../reply.ts';

const ON = new Set(['on', 'вкл', 'включить', '1']);
const OFF = new Set(['off', 'выкл', 'выключить', '0']);

/**
 * `/autolookup on|off` (and its button in /settings): a group's admin has the bot read every
 * message of the group for identifiers. Only in groups on the bot's list; Telegram delivers
 * ordinary messages only with privacy mode off (getMe's can_read_all_group_messages), which the
 * answer then says how to change.
 */
export const createAutolookupFeature = ({ autolookup, isAdmin, access }: { autolookup: AutolookupSwitch; isAdmin: AdminCheck; access: Pick<Access, 'mayWatchIn'> }) => {
  const feature = createFeature();
  // A group on the list (or granted by an admin) is one whose messages the bot may read for numbers.
  const allowedGroup = (chatId: number) => access.mayWatchIn(chatId);

  /** What turning it on or off says; on, with how to turn privacy mode off when Telegram keeps the messages from the bot. */
  const switched = async (ctx: BotContext, on: boolean): Promise<string> => {
    if (!on) return ctx.t('paste.autolookup.off');
    // Asked now, not at start: the owner may have changed it in BotFather since.
    const me = await ctx.telegram.getMe();
    return me.can_read_all_group_messages ? ctx.t('paste.autolookup.on') : `${ctx.t('paste.autolookup.on')}\n\n${ctx.t('paste.autolookup.privacy')}`;
  };

  /** Why this update may not switch it, or undefined. */
  const refusal = async (ctx: BotContext): Promise<string | undefined> => {
    if (!ctx.chat || ctx.chat.type === 'private') return ctx.t('paste.autolookup.privateChat');
    if (!allowedGroup(ctx.chat.id)) return ctx.t('paste.autolookup.notAllowed', { chatId: ctx.chat.id });
    const admin = await isAdmin(ctx);
    return admin === 'admin' ? undefined : adminRefusal(admin, 'paste.autolookup.adminsOnly', ctx);
  };

  feature.command('autolookup', async (ctx) => {
    const word = ctx.payload.trim().toLowerCase();
    const on = ON.has(word) ? true : OFF.has(word) ? false : undefined;
    const refused = await refusal(ctx);
    if (refused !== undefined) return ctx.reply(refused, replyOptions(ctx));
    if (on === undefined) {
      const state = ctx.t((await autolookup.enabled(ctx.chat.id)) ? 'paste.autolookup.stateOn' : 'paste.autolookup.stateOff');
      return ctx.reply(ctx.t('paste.autolookup.usage', { state }), replyOptions(ctx));
    }
    await autolookup.set(ctx.chat.id, on, ctx.from.id);
    return ctx.reply(await switched(ctx, on), replyOptions(ctx));
  });

  feature.use(
    onCallback('autolookup', async (ctx, action) => {
      // Checked again on the press: anyone in the group can press the admin's buttons.
      const refused = await refusal(ctx);
      if (refused !== undefined || !ctx.chat || !ctx.from) return ctx.answerOnce(refused, true);
      await autolookup.set(ctx.chat.id, action.on, ctx.from.id);
      await ctx.answerOnce(ctx.t(action.on ? 'paste.autolookup.stateOn' : 'paste.autolookup.stateOff'));
      await editView(ctx, { text: await switched(ctx, action.on), keyboard: [] });
    }),
  );
  return feature;
};
