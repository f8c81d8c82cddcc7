import type { Access } from '../../access.ts';
import { daysBefore, type Usage } from '../../store/usage.ts';
import type { UsageStore } from '../../store/usage-store.ts';
import { createFeature } from '../feature.ts';
import { replyOptions } from '../reply.ts';
import { renderStats } from '../views/stats.ts';

export type StatsDeps = {
  access: Pick<Access, 'isAdmin'>;
  store: Pick<UsageStore, 'counts' | 'activeUsers'>;
  /** This process's counts not yet in the store: added first, so /stats is up to the moment. */
  usage?: Pick<Usage, 'flush' | 'today'>;
  /** The portal's circuit breaker in this process. */
  circuit?: () => string;
  now: () => Date;
};

/** Days /stats looks back: today, the last 7, the last 30 (today included). */
const PERIODS = [1, 7, 30] as const;

/** /stats for the bot's admins: usage at a glance, from the counters of every replica. */
export const createStatsFeature = ({ access, store, usage, circuit, now }: StatsDeps) => {
  const feature = createFeature();
  feature.command('stats', async (ctx) => {
    if (!access.isAdmin(ctx.from.id)) return ctx.reply(ctx.t('admin.onlyAdmins'), replyOptions(ctx));
    await usage?.flush();
    // The counters' days are TIME_ZONE's, whatever zone the chat reads times in.
    const today = usage?.today() ?? ctx.fmt.day(now());
    const periods = [];
    for (const days of PERIODS) {
      const from = daysBefore(today, days - 1);
      periods.push({ from, activeUsers: await store.activeUsers(from) });
    }
    const counts = await store.counts(periods.at(-1)!.from);
    return ctx.reply(renderStats({ periods, counts, ...(circuit ? { circuit: circuit() } : {}) }, ctx.t, ctx.fmt), replyOptions(ctx));
  });
  return feature;
};
