import type { Results } from '../portal/client.ts';
import type { MessageView } from '../telegram/view.ts';
import { recordTarget } from '../watch/record-target.ts';
import type { Watches } from '../watch/watches.ts';
import type { QueryRef } from './callback-data/codec.ts';
import type { BotContext } from './context.ts';
import type { Statuses } from './statuses.ts';
import { renderLookup } from './views/lookup.ts';
import { isSingle, renderRecord, renderRichRecordView } from './views/record.ts';
import { renderStatusButtons } from './views/status.ts';
import { watchState } from './watching.ts';

/**
 * How a lookup is answered, whether typed, pressed or pasted: one record found opens at once in
 * full (no list to go back to; a rich message where the server has them); more, their list; none, "nothing found", for a status with the
 * statuses the bot knows as buttons. 🔔/🔕 where watches are allowed.
 */
export const createResultsAnswer =
  ({ watches, statuses, now }: { watches: Watches; statuses: Statuses; now: () => Date }) =>
  async (ctx: BotContext, results: Results, ref: QueryRef): Promise<MessageView> => {
    if (isSingle(results)) {
      const target = recordTarget(results, 0);
      const watch = target ? await watchState(watches, ctx, target) : undefined;
      const render = ctx.features.has('richMessages') ? renderRichRecordView : renderRecord;
      const view = render(results, { index: 0, part: 0 }, { list: ref }, ctx.t, ctx.fmt, now(), watch);
      if (view) return view;
    }
    const view = renderLookup(results, ref, ctx.t, ctx.fmt, now(), await watchState(watches, ctx, { query: results.query }));
    const { query } = results;
    if (results.page.items.length > 0 || (query.filter !== 'STATUS' && query.filter !== 'STATUS_TYPE')) return view;
    const keyboard = renderStatusButtons(query.resource, query.filter, await statuses.known(query.resource, query.filter), ctx.locale, ctx.t);
    return keyboard.length === 0 ? view : { text: `${view.text}\n${ctx.t('status.known')}`, keyboard };
  };

export type ResultsAnswer = ReturnType<typeof createResultsAnswer>;
