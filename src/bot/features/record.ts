import { createFeature } from '../feature.ts';
import type { Lookups } from '../lookups.ts';
import type { BotContext } from '../context.ts';
import type { CallbackAction } from '../callback-data/codec.ts';
import type { Results } from '../../portal/client.ts';
import { onCallback } from '../filters/on-callback.ts';
import { editKeyboard, editView } from '../reply.ts';
import { renderRecord, renderRecordMaterials, renderRichRecordView } from '../views/record.ts';
import { renderRecordGone } from '../views/notices.ts';
import { recordIds, recordsOf } from '../views/resources.ts';
import { recordTarget } from '../../watch/record-target.ts';
import type { Watches } from '../../watch/watches.ts';
import { watchState } from '../watching.ts';

type RecordButton = Extract<CallbackAction, { type: 'record' | 'materials' }>;

/** The record a button was made for, at its place or moved within the page; -1 when it is gone. */
const placeOf = (results: Results, action: RecordButton): number => {
  const ids = recordIds(recordsOf(results));
  return ids[action.index] === action.id ? action.index : ids.indexOf(action.id);
};

/**
 * One record of a results page opened in full, and its own pages. As a rich message (a table,
 * details blocks) where the server has them: a message of its own under the results page, since
 * Telegram turns no text message into a rich one; else in the results page's message, as HTML.
 */
export const createRecordFeature = ({ lookups, watches, now }: { lookups: Lookups; watches: Watches; now: () => Date }) => {
  const feature = createFeature();
  feature.use(
    onCallback('record', async (ctx, action) => {
      // Its own page or nothing: a record button never falls back to the last page.
      const results = await lookups.pressed(ctx, action, { ...action, refresh: true }, { exact: true });
      if (!results) return;
      const index = placeOf(results, action);
      const refs = { list: action.ref };
      const target = index < 0 ? undefined : recordTarget(results, index);
      const watch = target ? await watchState(watches, ctx, target) : undefined;
      const render = ctx.features.has('richMessages') ? renderRichRecordView : renderRecord;
      const view = index < 0 ? undefined : render(results, { index, part: action.part }, refs, ctx.t, ctx.fmt, now(), watch);
      await editView(ctx, view ?? renderRecordGone(action, ctx.t));
    }),
  );

  // 📦 / 📄: the record's materials to choose from, in place of its keyboard; the text stays.
  feature.use(
    onCallback('materials', async (ctx: BotContext, action) => {
      const results = await lookups.pressed(ctx, { ...action, refresh: false }, action, { exact: true });
      if (!results) return;
      const index = placeOf(results, action);
      const keyboard = index < 0 ? undefined : renderRecordMaterials(results, { index, page: action.page }, action.resource, { list: action.ref }, ctx.t);
      if (keyboard === undefined) return editView(ctx, renderRecordGone(action, ctx.t));
      await editKeyboard(ctx, keyboard);
    }),
  );
  return feature;
};
