import type { InlineKeyboardButton } from '../../telegram/telegraf/core.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import type { Statuses } from '../statuses.ts';
import { onCallback } from '../filters/on-callback.ts';
import { dropButton, isWatchListKeyboard, replaceButton, startButton, stopButton, watchActionOf, watchListOffsetOf, watchSettingsOffsetOf } from '../keyboards/watch-button.ts';
import { dropOptionButtons, optionPairs } from '../keyboards/watch-options.ts';
import { asker, type Lookups } from '../lookups.ts';
import { editKeyboard, editView, replyOptions, replyView } from '../reply.ts';
import { whileTyping } from '../typing.ts';
import { recordIds, recordsOf } from '../views/resources.ts';
import { renderWatchList, WATCH_LIST_PAGE } from '../views/watch-list.ts';
import { renderWatchStarted, renderWatchUsage } from '../views/watch-notices.ts';
import { parseResourceArgs } from '../lookup-args.ts';
import { recordTarget } from '../../watch/record-target.ts';
import type { StartResult, Watches } from '../../watch/watches.ts';
import { watcherOf } from '../watching.ts';
import type { WatchTarget } from '../../store/watch-store.ts';

/** The keyboard of the message whose button was pressed (none for a message too old to read). */
const pressedKeyboard = (ctx: BotContext): InlineKeyboardButton[][] => {
  const message = ctx.callbackQuery?.message;
  return message && 'reply_markup' in message ? (message.reply_markup?.inline_keyboard ?? []) : [];
};

const pressedData = (ctx: BotContext): string => (ctx.callbackQuery && 'data' in ctx.callbackQuery ? ctx.callbackQuery.data : '');

/** `/watch …` adds a watch, `/watch` alone lists the chat's; 🔔 and 🔕 under results, records and the list. */
export const createWatchFeature = ({ lookups, watches, intervalMs, now, statuses }: { lookups: Lookups; watches: Watches; intervalMs: number; now: () => Date; statuses?: Statuses }) => {
  const feature = createFeature();

  const showList = async (ctx: BotContext, chatId: number, offset: number, edit: boolean) => {
    const view = renderWatchList(await watches.list(chatId), offset, ctx.t, ctx.fmt, now());
    return edit ? editView(ctx, view) : replyView(ctx, view);
  };

  feature.command('watch', async (ctx) => {
    if (ctx.payload.trim() === '') return showList(ctx, ctx.chat.id, 0, false);
    const args = parseResourceArgs(ctx.payload, { today: ctx.fmt.day(now()) });
    if (!args.ok) return ctx.reply(renderWatchUsage(args, ctx.t), replyOptions(ctx));
    const query = statuses ? await statuses.codeFor(args.query) : args.query;
    const result = await whileTyping(ctx, watches.start(watcherOf(ctx, ctx.chat.id), { query }));
    const text = renderWatchStarted(result, intervalMs, ctx.t, ctx.fmt);
    // What to be told, and when, is chosen right on the confirmation.
    if (result.kind === 'added' || result.kind === 'already') return replyView(ctx, { text, keyboard: optionPairs(result.watch, ctx.t) });
    return ctx.reply(text, replyOptions(ctx));
  });

  /** After a 🔔: 🔕 in its place when the chat now watches the target, else the refusal as a message. */
  const started = async (ctx: BotContext, result: StartResult) => {
    if (result.kind === 'added' || result.kind === 'already') {
      return editKeyboard(ctx, replaceButton(pressedKeyboard(ctx), pressedData(ctx), stopButton(result.watch.id, ctx.t)));
    }
    await ctx.reply(renderWatchStarted(result, intervalMs, ctx.t, ctx.fmt), replyOptions(ctx));
  };

  const startFromButton = async (ctx: BotContext, target: () => Promise<WatchTarget | undefined>) => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
    // Answered at once: all of the query's records are fetched before the watch is stored.
    await ctx.answerOnce(ctx.t('watch.answer.watching'));
    const found = await target();
    if (!found) return ctx.reply(ctx.t('details.gone'), replyOptions(ctx));
    await started(ctx, await whileTyping(ctx, watches.start(watcherOf(ctx, chatId), found)));
  };

  feature.use(
    onCallback('watch', async (ctx, action) => {
      const query = await lookups.resolve(action.ref);
      if (!query) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await startFromButton(ctx, async () => ({ query }));
    }),
  );

  feature.use(
    onCallback('watchRecord', async (ctx, action) => {
      const query = await lookups.resolve(action.ref);
      if (!query) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await startFromButton(ctx, async () => {
        // The button knows the record by its place and fingerprint; its SAP number is on the page.
        const results = await lookups.fetchPage(query, action.limit, action.offset, asker(ctx, 'button'), { exact: true });
        const ids = recordIds(recordsOf(results));
        const index = ids[action.index] === action.id ? action.index : ids.indexOf(action.id);
        return index < 0 ? undefined : recordTarget(results, index);
      });
    }),
  );

  feature.use(
    onCallback('unwatch', async (ctx, action) => {
      const chatId = ctx.chat?.id;
      // Only the chat's own watch: a forged id of another chat's watch stops nothing.
      const stopped = chatId === undefined ? undefined : await watches.stop(watcherOf(ctx, chatId), action.watchId);
      if (chatId === undefined || !stopped) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await ctx.answerOnce(ctx.t('watch.answer.stopped'));
      const keyboard = pressedKeyboard(ctx);
      if (isWatchListKeyboard(keyboard)) return showList(ctx, chatId, watchListOffsetOf(keyboard, WATCH_LIST_PAGE), true);
      // Stopped from its settings: back to the list it was opened from.
      const back = watchSettingsOffsetOf(keyboard);
      if (back !== undefined) return showList(ctx, chatId, back, true);
      // Under results or a record 🔕 turns back into 🔔; elsewhere (a notification) it goes, with the watch's other buttons.
      const bell = watchActionOf(keyboard);
      await editKeyboard(ctx, bell ? replaceButton(keyboard, pressedData(ctx), startButton(bell, ctx.t)) : dropOptionButtons(dropButton(keyboard, pressedData(ctx)), action.watchId));
    }),
  );

  feature.use(
    onCallback('watchList', async (ctx, action) => {
      if (ctx.chat === undefined) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await ctx.answerOnce();
      await showList(ctx, ctx.chat.id, action.offset, true);
    }),
  );

  return feature;
};
