import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import { isMessageGone, isNotModified } from '../../telegram/errors.ts';
import type { Watch } from '../../store/watch-store.ts';
import type { OptionResult, WatchOptionsService } from '../../watch/watch-options.ts';
import type { Watches } from '../../watch/watches.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { onCallback } from '../filters/on-callback.ts';
import { watchSettingsOffsetOf } from '../keyboards/watch-button.ts';
import { refreshOptionButtons } from '../keyboards/watch-options.ts';
import { editKeyboard, editView } from '../reply.ts';
import { renderWatchSettings } from '../views/watch-settings.ts';
import { WATCH_LIST_PAGE } from '../views/watch-list.ts';

/** The keyboard of the message whose button was pressed (none for a message too old to read). */
const pressedKeyboard = (ctx: BotContext): InlineKeyboardButton[][] => {
  const message = ctx.callbackQuery?.message;
  return message && 'reply_markup' in message ? (message.reply_markup?.inline_keyboard ?? []) : [];
};

/**
 * A watch's options from its buttons (on the /watch confirmation, a notification, a watch's
 * settings): *all changes* / *status only*, *instantly* / *in the digest only*, ⏸ 1 day / 1 week
 * and ▶; and ⚙ in the /watch list, which opens one watch's settings. Only the chat's own watch:
 * a button of a watch gone (or of another chat) is answered so, and changes nothing.
 */
export const createWatchOptionsFeature = ({ watches, options, now }: { watches: Watches; options: WatchOptionsService; now: () => Date }) => {
  const feature = createFeature();

  /** Where the watch stands in the chat's list: its number there. */
  const numberOf = async (chatId: number, watchId: number): Promise<number> => (await watches.list(chatId)).findIndex((watch) => watch.id === watchId) + 1;

  /** The buttons pressed show the watch as it is now: in its settings the whole view, elsewhere only the keyboard. */
  const show = async (ctx: BotContext, watch: Watch) => {
    const keyboard = pressedKeyboard(ctx);
    const offset = watchSettingsOffsetOf(keyboard);
    try {
      if (offset !== undefined) {
        await editView(ctx, renderWatchSettings(watch, await numberOf(watch.chatId, watch.id), offset, ctx.t, ctx.fmt, now()));
      } else await editKeyboard(ctx, refreshOptionButtons(keyboard, watch, ctx.t));
    } catch (error) {
      if (!isNotModified(error) && !isMessageGone(error)) throw error;
    }
  };

  const answer = async (ctx: BotContext, result: OptionResult, done: (watch: Watch) => string) => {
    if (result.kind === 'gone') return ctx.answerOnce(ctx.t('snooze.gone'), true);
    if (result.kind === 'noDigest') return ctx.answerOnce(ctx.t('snooze.noDigest'), true);
    await ctx.answerOnce(done(result.watch));
    await show(ctx, result.watch);
  };

  feature.use(
    onCallback('watchMode', async (ctx, action) => {
      if (ctx.chat === undefined) return ctx.answerOnce(ctx.t('snooze.gone'), true);
      const result = await options.setStatusOnly(ctx.chat.id, ctx.from?.id, action.watchId, action.statusOnly);
      await answer(ctx, result, (watch) => ctx.t(watch.statusOnly ? 'snooze.answer.statusOnly' : 'snooze.answer.allChanges'));
    }),
  );

  feature.use(
    onCallback('watchDelivery', async (ctx, action) => {
      if (ctx.chat === undefined) return ctx.answerOnce(ctx.t('snooze.gone'), true);
      const result = await options.setDigestOnly(ctx.chat.id, ctx.from?.id, action.watchId, action.digestOnly);
      await answer(ctx, result, (watch) => ctx.t(watch.digestOnly ? 'snooze.answer.digestOnly' : 'snooze.answer.instantly'));
    }),
  );

  feature.use(
    onCallback('snooze', async (ctx, action) => {
      if (ctx.chat === undefined) return ctx.answerOnce(ctx.t('snooze.gone'), true);
      const chatId = ctx.chat.id;
      const result =
        action.span === 'resume' ? await options.resume(chatId, ctx.from?.id, action.watchId) : await options.snooze(chatId, ctx.from?.id, action.watchId, action.span);
      await answer(ctx, result, (watch) =>
        watch.snoozedUntil === undefined ? ctx.t('snooze.answer.resumed') : ctx.t('snooze.answer.snoozed', { until: ctx.fmt.dateTime(new Date(watch.snoozedUntil), now()) }),
      );
    }),
  );

  feature.use(
    onCallback('watchSettings', async (ctx, action) => {
      const chatId = ctx.chat?.id;
      const list = chatId === undefined ? [] : await watches.list(chatId);
      const index = list.findIndex((watch) => watch.id === action.watchId);
      if (index < 0) return ctx.answerOnce(ctx.t('snooze.gone'), true);
      await ctx.answerOnce();
      // The list's page the ◀ goes back to: the one that holds the watch now.
      const offset = Math.floor(index / WATCH_LIST_PAGE) * WATCH_LIST_PAGE;
      await editView(ctx, renderWatchSettings(list[index]!, index + 1, offset, ctx.t, ctx.fmt, now()));
    }),
  );

  return feature;
};
