import type { Digest } from '../../store/watch-store.ts';
import type { ChatDigest } from '../../watch/chat-digest.ts';
import type { Watches } from '../../watch/watches.ts';
import { adminRefusal, type AdminCheck } from '../chat-admins.ts';
import type { BotContext } from '../context.ts';
import { parseDigestArgs } from '../digest-args.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import { editView, replyOptions, replyView } from '../reply.ts';
import { renderBadDigest, renderDigestChoice, renderDigestOff, renderDigestSet } from '../views/digest-notices.ts';
import { watcherOf } from '../watching.ts';

/**
 * `/digest HH:MM [quiet]`, `/digest off` and the buttons of a few times: the chat's daily digest
 * (a group's set by its admins), in the chat's time zone. `/digest` alone shows it and the choice.
 * Only where watches may be kept.
 */
export const createDigestFeature = ({ digests, watches, isAdmin, now }: { digests: ChatDigest; watches: Watches; isAdmin: AdminCheck; now: () => Date }) => {
  const feature = createFeature();

  const set = async (ctx: BotContext, chatId: number, minute: number, quiet: boolean): Promise<string> => {
    const who = watcherOf(ctx, chatId);
    const digest: Digest = await digests.set(
      { chatId, ...(who.threadId !== undefined && { threadId: who.threadId }), userId: who.userId ?? chatId, locale: ctx.locale, minute, quiet },
      ctx.timeZone,
    );
    return renderDigestSet(digest, ctx.timeZone, (await watches.list(chatId)).length, ctx.fmt, now(), ctx.t);
  };

  const off = async (ctx: BotContext, chatId: number): Promise<string> => renderDigestOff(await digests.stop(chatId, ctx.from?.id ?? chatId), ctx.t);

  feature.command('digest', async (ctx) => {
    const chatId = ctx.chat.id;
    if (!watches.mayWatch(chatId)) return ctx.reply(ctx.t('watch.notAllowedInChat', { chatId }), replyOptions(ctx));
    if (ctx.payload.trim() === '') return replyView(ctx, renderDigestChoice(await digests.get(chatId), ctx.timeZone, ctx.fmt, now(), ctx.t));
    const admin = await isAdmin(ctx);
    if (admin !== 'admin') return ctx.reply(adminRefusal(admin, 'digest.adminsOnly', ctx), replyOptions(ctx));
    const args = parseDigestArgs(ctx.payload);
    switch (args.kind) {
      case 'off':
        return ctx.reply(await off(ctx, chatId), replyOptions(ctx));
      case 'at':
        return ctx.reply(await set(ctx, chatId, args.minute, args.quiet), replyOptions(ctx));
      default:
        return ctx.reply(renderBadDigest(args.kind, args.given, ctx.timeZone, ctx.t), replyOptions(ctx));
    }
  });

  feature.use(
    onCallback('digest', async (ctx, action) => {
      const chatId = ctx.chat?.id;
      if (chatId === undefined || !watches.mayWatch(chatId)) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      if (action.minute === 'choose') {
        await ctx.answerOnce();
        return editView(ctx, renderDigestChoice(await digests.get(chatId), ctx.timeZone, ctx.fmt, now(), ctx.t));
      }
      // Checked on the press: anyone in the group can press an admin's buttons.
      const admin = await isAdmin(ctx);
      if (admin !== 'admin') return ctx.answerOnce(adminRefusal(admin, 'digest.adminsOnly', ctx), true);
      await ctx.answerOnce();
      const quiet = (await digests.get(chatId))?.quiet ?? false;
      const text = action.minute === null ? await off(ctx, chatId) : await set(ctx, chatId, action.minute, quiet);
      await editView(ctx, { text, keyboard: [] });
    }),
  );

  return feature;
};
