import type { Logger } from 'pino';
import type { SettingsStore } from '../../store/store.ts';
import type { ChatDigest } from '../../watch/chat-digest.ts';
import { parseZoneName, RUSSIAN_ZONES } from '../../zone.ts';
import { adminRefusal, type AdminCheck } from '../chat-admins.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import { editView, replyOptions, replyView } from '../reply.ts';
import { renderUnknownZone, renderZoneChoice, renderZoneSet } from '../views/time-zone.ts';

/** What a group member who may not change the group's settings is told. */
/**
 * `/timezone <IANA name>` and the buttons of Russia's zones: the chat's time zone (a private
 * chat's for its user, a group's by its admins), which "updated 14:05", the digest and quiet
 * hours follow. `/timezone` alone shows it and the choice.
 */
export const createTimeZoneFeature = ({
  settings,
  digests,
  isAdmin,
  logger,
  now,
}: {
  settings: Pick<SettingsStore, 'chatTimeZone' | 'setChatTimeZone'>;
  digests: ChatDigest;
  isAdmin: AdminCheck;
  logger: Pick<Logger, 'info'>;
  now: () => Date;
}) => {
  const feature = createFeature();
  const inGroup = (ctx: BotContext) => ctx.chat !== undefined && ctx.chat.type !== 'private';

  const choice = async (ctx: BotContext, chatId: number) =>
    renderZoneChoice(ctx.timeZone, (await settings.chatTimeZone(chatId)) !== undefined, inGroup(ctx), ctx.fmt, now(), ctx.t);

  /** Sets the zone; what to say: the zone, the time there, when the digest comes now. */
  const apply = async (ctx: BotContext, chatId: number, zone: string): Promise<string> => {
    await settings.setChatTimeZone(chatId, zone);
    ctx.useTimeZone(zone);
    const digest = await digests.zoneChanged(chatId, zone);
    logger.info({ audit: true, chatId, userId: ctx.from?.id, timeZone: zone }, 'time zone set');
    return renderZoneSet(zone, ctx.fmt, now(), digest && new Date(digest.nextAt), ctx.t);
  };

  feature.command('timezone', async (ctx) => {
    const given = ctx.payload.trim();
    if (given === '') return replyView(ctx, await choice(ctx, ctx.chat.id));
    const admin = await isAdmin(ctx);
    if (admin !== 'admin') return ctx.reply(adminRefusal(admin, 'timezone.adminsOnly', ctx), replyOptions(ctx));
    const zone = parseZoneName(given);
    if (zone === undefined) return replyView(ctx, renderUnknownZone(given.slice(0, 64), ctx.timeZone, ctx.t));
    return ctx.reply(await apply(ctx, ctx.chat.id, zone), replyOptions(ctx));
  });

  feature.use(
    onCallback('timeZone', async (ctx, action) => {
      const chatId = ctx.chat?.id;
      if (chatId === undefined) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      if (action.zone === 'choose') {
        await ctx.answerOnce();
        return editView(ctx, await choice(ctx, chatId));
      }
      // Checked on the press: anyone in the group can press an admin's buttons.
      const admin = await isAdmin(ctx);
      if (admin !== 'admin') return ctx.answerOnce(adminRefusal(admin, 'timezone.adminsOnly', ctx), true);
      const zone = RUSSIAN_ZONES[action.zone]!;
      await ctx.answerOnce(zone);
      await editView(ctx, { text: await apply(ctx, chatId, zone), keyboard: [] });
    }),
  );

  return feature;
};
