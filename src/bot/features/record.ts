import { createFeature } from '../feature.ts';
import type { Lookups } from '../lookups.ts';
import { onCallback } from '../filters/on-callback.ts';
import { editView } from '../reply.ts';
import { renderRecord } from '../views/record.ts';
import { renderRecordGone } from '../views/notices.ts';
import { recordIds, recordsOf } from '../views/resources.ts';
import { recordTarget } from '../../watch/record-target.ts';
import type { Watches } from '../../watch/watches.ts';
import { watchState } from '../watching.ts';

/** One record of a results page opened in full, in the same message, and its own pages. */
export const createRecordFeature = ({ lookups, watches, now }: { lookups: Lookups; watches: Watches; now: () => Date }) => {
  const feature = createFeature();
  feature.use(
    onCallback('record', async (ctx, action) => {
      // Its own page or nothing: a record button never falls back to the last page.
      const results = await lookups.pressed(ctx, action, { ...action, refresh: true }, { exact: true });
      if (!results) return;
      // The record the button was made for, at its place or moved within the page; else it is gone.
      const ids = recordIds(recordsOf(results));
      const index = ids[action.index] === action.id ? action.index : ids.indexOf(action.id);
      const refs = { list: action.ref };
      const target = index < 0 ? undefined : recordTarget(results, index);
      const watch = target ? await watchState(watches, ctx, target) : undefined;
      const view = index < 0 ? undefined : renderRecord(results, { index, part: action.part }, refs, ctx.t, ctx.fmt, now(), watch);
      await editView(ctx, view ?? renderRecordGone(action, ctx.t));
    }),
  );
  return feature;
};
