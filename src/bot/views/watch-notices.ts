import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import type { WatchTarget } from '../../store/watch-store.ts';
import type { LookupArgs } from '../lookup-args.ts';
import type { StartResult } from '../../watch/watches.ts';
import { describeQuery } from './common/describe-query.ts';
import { escapeHtml } from './common/html.ts';
import { withUsage } from './notices.ts';

// What /watch and the 🔔 button say: the confirmation, the refusals, the usage.

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** «5 минут», «1 час», «90 секунд»: the largest unit that divides the interval whole. */
export const formatInterval = (intervalMs: number, t: Translate): string => {
  if (intervalMs % HOUR_MS === 0) return t('watch.interval.hours', { count: intervalMs / HOUR_MS });
  if (intervalMs % MINUTE_MS === 0) return t('watch.interval.minutes', { count: intervalMs / MINUTE_MS });
  return t('watch.interval.seconds', { count: Math.round(intervalMs / 1000) });
};

/** «заказы, номер SAP «0007300100»»; a watch of one specification names its SAP number too. */
export const describeTarget = (target: WatchTarget, t: Translate, fmt: Formatter): string => {
  const query = describeQuery(target.query, t, fmt);
  if (target.sapId !== undefined) return t('watch.what.specification', { sapId: escapeHtml(target.sapId), query });
  return t(target.query.resource === 'order' ? 'watch.what.orders' : 'watch.what.specifications', { query });
};

export const renderWatchStarted = (result: StartResult, intervalMs: number, t: Translate, fmt: Formatter): string => {
  switch (result.kind) {
    case 'added':
      return t('watch.added', {
        what: describeTarget(result.watch.target, t, fmt),
        count: fmt.pieces(result.count ?? 0),
        interval: formatInterval(intervalMs, t),
      });
    case 'already':
      return t('watch.already', { what: describeTarget(result.watch.target, t, fmt) });
    case 'tooMany':
      return t('watch.tooMany', { count: fmt.pieces(result.total), max: fmt.pieces(result.max) });
    case 'tooLarge':
      return t('watch.tooLarge');
    case 'busy':
      return t('watch.busy');
    case 'limit':
      return t('watch.limit', { limit: fmt.pieces(result.limit) });
    case 'notAllowed':
      return t('watch.notAllowedInChat', { chatId: result.chatId });
  }
};

export const renderWatchUsage = (failure: Exclude<LookupArgs, { ok: true }>, t: Translate): string => withUsage(t('watch.usage'), failure, t);
