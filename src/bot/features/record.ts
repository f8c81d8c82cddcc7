import { Composer } from 'telegraf';
import type { BotContext } from '../context.ts';
import { asker, type Lookups } from '../lookups.ts';
import { onCallback } from '../on-callback.ts';
import { editView } from '../reply.ts';
import { renderRecord } from '../views/record.ts';
import { renderRecordGone } from '../views/notices.ts';

/** One record of a results page opened in full, in the same message, and its own pages. */
export const createRecordFeature = ({ lookups, now }: { lookups: Lookups; now: () => Date }) => {
  const feature = new Composer<BotContext>();
  feature.use(
    onCallback('record', async (ctx, action) => {
      const query = lookups.resolve(action.ref);
      if (!query) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await ctx.answerOnce();
      const results = await lookups.fetchPage(query, action.limit, action.offset, asker(ctx, 'button'));
      const refs = { list: action.ref, refFor: lookups.refFor };
      const view = renderRecord(results, action, refs, ctx.t, ctx.fmt, now());
      await editView(ctx, view ?? renderRecordGone(action, ctx.t));
    }),
  );
  return feature;
};
