import { createFeature } from '../feature.ts';
import type { Exports } from '../export/exports.ts';
import { onCallback } from '../filters/on-callback.ts';
import { parseResourceArgs } from '../lookup-args.ts';
import type { Lookups } from '../lookups.ts';
import { replyOptions } from '../reply.ts';
import { renderExportUsage } from '../views/export.ts';

/** `/export …` and 📊 Excel under results (and its "Try again"): every record of a query as an .xlsx file. */
export const createExportFeature = ({ lookups, exports }: { lookups: Lookups; exports: Exports }) => {
  const feature = createFeature();

  feature.command('export', async (ctx) => {
    const args = parseResourceArgs(ctx.payload);
    if (!args.ok) return ctx.reply(renderExportUsage(args, ctx.t), replyOptions(ctx));
    const ref = await lookups.refFor(args.query);
    const turn = exports.take(ctx);
    if (!turn) return ctx.reply(ctx.t('export.running'), replyOptions(ctx));
    exports.run(ctx, turn, args.query, ref);
  });

  feature.use(
    onCallback('export', async (ctx, action) => {
      const query = await lookups.resolve(action.ref);
      // A message sent in inline mode has no chat to send the file to.
      if (!query || ctx.chat === undefined) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      const turn = exports.take(ctx);
      if (!turn) return ctx.answerOnce(ctx.t('export.running'), true);
      try {
        await ctx.answerOnce(ctx.t('export.preparing'));
      } catch (error) {
        turn.end();
        throw error;
      }
      exports.run(ctx, turn, query, action.ref);
    }),
  );

  return feature;
};
