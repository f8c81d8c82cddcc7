import type { ExportPlace, Exports } from '../../export/exports.ts';
import type { QueryRef } from '../callback-data/codec.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import type { Statuses } from '../statuses.ts';
import { onCallback } from '../filters/on-callback.ts';
import { parseResourceArgs } from '../lookup-args.ts';
import type { Lookups } from '../lookups.ts';
import { reachPrivateChat, replyOptions, replyView } from '../reply.ts';
import { exportViews, renderExportUsage } from '../views/export.ts';

/** The message an export answers: the command, or the message whose button was pressed. */
const messageOf = (ctx: BotContext) => ctx.message ?? ctx.callbackQuery?.message;

/** The forum topic of that message, where the progress and the file go too. */
const topicOf = (ctx: BotContext): number | undefined => {
  const message = messageOf(ctx);
  return message && 'is_topic_message' in message && message.is_topic_message ? message.message_thread_id : undefined;
};

/**
 * Where the export of this update runs (src/export/exports.ts takes plain values); "Try again"
 * starts `ref` again. For one user of a group (issue 32: private answers) their private chat.
 */
const placeOf = (ctx: BotContext, chatId: number, ref: QueryRef): ExportPlace => {
  const alone = ctx.answerPlace !== undefined;
  const threadId = alone ? undefined : topicOf(ctx);
  const replyTo = alone || ctx.chat?.type === 'private' ? undefined : messageOf(ctx)?.message_id;
  return {
    telegram: ctx.telegram,
    chatId,
    ...(threadId === undefined ? {} : { threadId }),
    ...(replyTo === undefined ? {} : { replyTo }),
    userId: ctx.from?.id ?? chatId,
    fmt: ctx.fmt,
    views: exportViews(ctx.t, ctx.fmt, ref),
  };
};

/** The user's turn: one export of theirs at a time. */
const turnOf = (ctx: BotContext, exports: Exports) => exports.take(ctx.from?.id ?? ctx.chat?.id ?? 0);
/** `/export …` and 📊 Excel under results (and its "Try again"): every record of a query as an .xlsx file. */
export const createExportFeature = ({ lookups, exports, now = () => new Date(), statuses }: { lookups: Lookups; exports: Exports; now?: () => Date; statuses?: Statuses }) => {
  const feature = createFeature();

  feature.command('export', async (ctx) => {
    const args = parseResourceArgs(ctx.payload, { today: ctx.fmt.day(now()) });
    if (!args.ok) return ctx.reply(renderExportUsage(args, ctx.t), replyOptions(ctx));
    const query = statuses ? await statuses.codeFor(args.query) : args.query;
    const ref = await lookups.refFor(query);
    const place = ctx.answerPlace;
    if (place !== undefined && !(await reachPrivateChat(ctx, place))) return;
    const turn = turnOf(ctx, exports);
    if (!turn) return ctx.reply(ctx.t('export.running'), replyOptions(ctx));
    exports.run(placeOf(ctx, place?.userId ?? ctx.chat.id, ref), turn, query);
    // The group sees nothing; the asker is told where the file goes.
    if (place?.ephemeral !== undefined) await replyView(ctx, { text: ctx.t('answers.exportPrivate'), keyboard: [] });
  });

  feature.use(
    onCallback('export', async (ctx, action) => {
      const query = await lookups.resolve(action.ref);
      // A message sent in inline mode has no chat to send the file to; one user's answer in a group, their private chat.
      const place = ctx.answerPlace;
      const chatId = place?.userId ?? ctx.chat?.id;
      if (!query || chatId === undefined) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      if (place !== undefined && !(await reachPrivateChat(ctx, place))) return ctx.answerOnce();
      const turn = turnOf(ctx, exports);
      if (!turn) return ctx.answerOnce(ctx.t('export.running'), true);
      try {
        await ctx.answerOnce(ctx.t('export.preparing'));
      } catch (error) {
        turn.end();
        throw error;
      }
      exports.run(placeOf(ctx, chatId, action.ref), turn, query);
    }),
  );

  return feature;
};
