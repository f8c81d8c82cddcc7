import type { Formatter } from '../../format.ts';
import type { Translate } from '../../i18n.ts';
import { ORDER_FILTERS, SPECIFICATION_FILTERS, type Query, type Resource } from '../../query.ts';
import { OVER_LAST_BUCKET, PORTAL_MS_BUCKETS, USAGE } from '../../store/usage.ts';
import type { UsageCount } from '../../store/usage-store.ts';
import { filterLabel } from './common/describe-query.ts';
import { escapeHtml } from './common/html.ts';

// /stats: today, 7 and 30 days side by side, from the counters every replica adds to the store.

export type StatsPeriod = { from: string; activeUsers: number };

export type StatsData = {
  /** Today, the last 7 days, the last 30 days (each its first day and its distinct users). */
  periods: readonly StatsPeriod[];
  /** The counts of the longest period, per day. */
  counts: readonly UsageCount[];
  /** The portal's circuit breaker in this process now. */
  circuit?: string;
};

const KNOWN_VIAS = ['command', 'button', 'inline', 'pasted', 'mention', 'autolookup', 'guest'];
const TOP_FILTERS = 10;

const sumOf = (counts: readonly UsageCount[], from: string, name: string, key?: string): number =>
  counts.reduce((sum, row) => (row.day >= from && row.name === name && (key === undefined || row.key === key) ? sum + row.value : sum), 0);

const keysOf = (counts: readonly UsageCount[], name: string): string[] => [...new Set(counts.filter((row) => row.name === name).map((row) => row.key))];

/** The answer time below which a share `p` of the calls fell, read from the day histograms: linear within a bucket. */
export const percentileOf = (counts: readonly UsageCount[], from: string, p: number): number | 'over' | undefined => {
  const buckets = [...PORTAL_MS_BUCKETS.map(String), OVER_LAST_BUCKET].map((key) => sumOf(counts, from, USAGE.portalMs, key));
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) return undefined;
  const wanted = p * total;
  let below = 0;
  for (const [index, n] of buckets.entries()) {
    if (n > 0 && below + n >= wanted) {
      const upper = PORTAL_MS_BUCKETS[index];
      if (upper === undefined) return 'over';
      const lower = index === 0 ? 0 : PORTAL_MS_BUCKETS[index - 1]!;
      return Math.round(lower + ((upper - lower) * (wanted - below)) / n);
    }
    below += n;
  }
  return 'over';
};

const filterName = (key: string, t: Translate): { resource: string; filter: string } => {
  const [resource, ...rest] = key.split('.');
  const filter = rest.join('.');
  const known: readonly string[] = resource === 'order' ? ORDER_FILTERS : resource === 'specification' ? SPECIFICATION_FILTERS : [];
  if ((resource === 'order' || resource === 'specification') && known.includes(filter)) {
    return { resource: t(`stats.resource.${resource}`), filter: filterLabel({ resource, filter, value: '' } as Query, t) };
  }
  // A filter this version does not know (a newer replica's): its name as kept.
  return { resource: escapeHtml(resource ?? ''), filter: escapeHtml(filter) };
};

export const renderStats = ({ periods, counts, circuit }: StatsData, t: Translate, fmt: Formatter): string => {
  const values = (of: (from: string) => number | string) => periods.map(({ from }) => of(from)).map((value) => (typeof value === 'number' ? fmt.number(value) : value)).join(' · ');
  const sums = (name: string, key?: string) => values((from) => sumOf(counts, from, name, key));
  const time = (p: number) =>
    values((from) => {
      const ms = percentileOf(counts, from, p);
      if (ms === undefined) return t('stats.none');
      if (ms === 'over') return t('stats.over', { value: PORTAL_MS_BUCKETS.at(-1)! / 1000 });
      return t('stats.ms', { value: fmt.number(ms) });
    });
  const vias = [...KNOWN_VIAS.filter((via) => keysOf(counts, USAGE.lookupVia).includes(via)), ...keysOf(counts, USAGE.lookupVia).filter((via) => !KNOWN_VIAS.includes(via))];
  const resources = keysOf(counts, USAGE.lookupResource).sort();
  const calls = values((from) => sumOf(counts, from, USAGE.portalCalls));
  const failures = values((from) => sumOf(counts, from, USAGE.portalCalls) - sumOf(counts, from, USAGE.portalCalls, 'ok'));
  const longest = periods.at(-1)?.from ?? '';
  const top = keysOf(counts, USAGE.lookupFilter)
    .map((key) => ({ key, count: sumOf(counts, longest, USAGE.lookupFilter, key) }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, TOP_FILTERS);
  return [
    t('stats.title'),
    t('stats.activeUsers', { values: values((from) => periods.find((period) => period.from === from)?.activeUsers ?? 0) }),
    t('stats.lookups', { values: sums(USAGE.lookupVia) }),
    ...vias.map((via) => t('stats.item', { label: KNOWN_VIAS.includes(via) ? t(`stats.via.${via}`) : escapeHtml(via), values: sums(USAGE.lookupVia, via) })),
    ...resources.map((resource) => t('stats.item', { label: resource === 'order' || resource === 'specification' ? t(`stats.resource.${resource as Resource}`) : escapeHtml(resource), values: sums(USAGE.lookupResource, resource) })),
    t('stats.exports', { values: sums(USAGE.exports, 'sent') }),
    t('stats.watches', { values: sums(USAGE.watches, 'added') }),
    t('stats.notifications', { values: sums(USAGE.notifications, 'sent') }),
    '',
    t('stats.portal'),
    t('stats.p50', { values: time(0.5) }),
    t('stats.p95', { values: time(0.95) }),
    t('stats.failures', { values: failures, calls }),
    t('stats.circuitOpened', { values: sums(USAGE.circuit, 'opened') }),
    ...(circuit === undefined ? [] : [t('stats.circuit', { state: t(`stats.state.${circuit}`) })]),
    '',
    t('stats.topFilters'),
    ...(top.length === 0 ? [t('stats.noFilters')] : top.map(({ key, count }, index) => t('stats.filter', { n: index + 1, ...filterName(key, t), count: fmt.number(count) }))),
  ].join('\n');
};
