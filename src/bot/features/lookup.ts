import type { Resource } from '../../query.ts';
import type { ResultsAnswer } from '../answer-results.ts';
import type { BotContext } from '../context.ts';
import { createFeature } from '../feature.ts';
import { keywordFilter, parseLookupArgs, parseSapNumbers } from '../lookup-args.ts';
import { asker, type Lookups } from '../lookups.ts';
import { onCallback } from '../filters/on-callback.ts';
import type { Pasted } from '../pasted.ts';
import { editView, replyOptions, replyView } from '../reply.ts';
import type { Statuses } from '../statuses.ts';
import { whileTyping } from '../typing.ts';
import { rerunPayload } from '../rerun.ts';
import { renderLookup } from '../views/lookup.ts';
import { renderUsage } from '../views/notices.ts';
import { renderStatusChoice } from '../views/status.ts';
import type { Watches } from '../../watch/watches.ts';
import { watchState } from '../watching.ts';

/**
 * `/order …` and `/spec …`, the ◀ ▶ and Refresh buttons under their results, and cross-links. A
 * lookup that finds one record opens it at once (answer-results.ts); several SAP numbers after
 * `/order` are answered as pasted ones; a status may be given by its name.
 */
export const createLookupFeature = ({
  lookups,
  watches,
  statuses,
  answer,
  pasted,
  now,
}: {
  lookups: Lookups;
  watches: Watches;
  statuses: Statuses;
  answer: ResultsAnswer;
  pasted: Pasted;
  now: () => Date;
}) => {
  const feature = createFeature();

  const lookup = (resource: Resource) => async (ctx: BotContext & { payload: string }) => {
    const several = resource === 'order' ? parseSapNumbers(ctx.payload) : undefined;
    if (several) return pasted(ctx, several, 'command');
    const args = parseLookupArgs(resource, ctx.payload, { today: ctx.fmt.day(now()) });
    const statusFilter = keywordFilter(resource, ctx.payload);
    if (!args.ok && args.reason === 'missingValue' && (statusFilter === 'STATUS' || statusFilter === 'STATUS_TYPE')) {
      return replyView(ctx, renderStatusChoice(resource, statusFilter, await statuses.known(resource, statusFilter), undefined, ctx.locale, ctx.t));
    }
    if (!args.ok) return ctx.reply(renderUsage(resource, args, ctx.t), replyOptions(ctx));
    const choice = await statuses.resolve(args.query);
    if (choice.kind === 'choose') {
      const field = args.query.filter === 'STATUS_TYPE' ? 'STATUS_TYPE' : 'STATUS';
      return replyView(ctx, renderStatusChoice(resource, field, choice.known, choice, ctx.locale, ctx.t));
    }
    const ref = await lookups.refFor(choice.query);
    // Issue 32: where the answer may go to the private chat, its note's button runs this lookup there.
    if (ctx.answerPlace) ctx.answerPlace.rerun = rerunPayload(ref) ?? rerunPayload({ key: await lookups.keyFor(choice.query) });
    ctx.retry = { type: 'page', ref, limit: ctx.pageSize, offset: 0, refresh: true };
    const results = await whileTyping(ctx, lookups.fetchPage(choice.query, ctx.pageSize, 0, asker(ctx, 'command')));
    return replyView(ctx, await answer(ctx, results, ref));
  };

  feature.command('order', lookup('order'));
  feature.command('spec', lookup('specification'));

  feature.use(
    onCallback('page', async (ctx, action) => {
      const results = await lookups.pressed(ctx, action, { ...action, refresh: true });
      // Each results message shows 🔔, or 🔕 when the chat already watches its query.
      if (results) await editView(ctx, renderLookup(results, action.ref, ctx.t, ctx.fmt, now(), await watchState(watches, ctx, { query: results.query })));
    }),
  );

  // A cross-link runs its lookup as a new message, so the record it came from stays.
  feature.use(
    onCallback('lookup', async (ctx, action) => {
      const query = await lookups.resolve(action.ref);
      if (!query) return ctx.answerOnce(ctx.t('errors.staleButton'), true);
      await ctx.answerOnce();
      ctx.retry = { type: 'page', ref: action.ref, limit: ctx.pageSize, offset: 0, refresh: true };
      const results = await whileTyping(ctx, lookups.fetchPage(query, ctx.pageSize, 0, asker(ctx, 'button')));
      await replyView(ctx, await answer(ctx, results, action.ref));
    }),
  );

  feature.use(onCallback('noop', (ctx) => ctx.answerOnce()));
  return feature;
};
