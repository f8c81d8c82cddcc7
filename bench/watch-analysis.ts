import { percentile } from './load.ts';
import { histogramQuantile, metric } from './prometheus.ts';
import type { WatchPortal } from './watch-portal.ts';

// The figures of the watch scenario over its measured window [from, to), from what the bench
// portal served, what the lean Bot API received, and two scrapes of the bot's /metrics.

/** A sendMessage the lean Bot API received in the window: when (ms since the epoch) and its text. */
export type Notified = { at: number; text: string };

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const stats = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50) / 1000, p99: percentile(sorted, 99) / 1000, max: (sorted.at(-1) ?? NaN) / 1000 };
};

export const analyse = (input: { portal: WatchPortal; notified: Notified[]; from: number; to: number; metricsBefore: string; metricsAfter: string; chatsPerQuery: number; queries: number; intervalS: number }) => {
  const { portal, notified, from, to, metricsBefore, metricsAfter } = input;
  const seconds = (to - from) / 1000;
  const delta = (name: string) => metric(metricsAfter, name) - metric(metricsBefore, name);
  const perSecond = portal.perSecond(from, to);

  // Each notification names its order's SAP number: the change it tells of is the record's last
  // one before it arrived, and that change was seen by the first request served after it.
  const sinceChange: number[] = [];
  const sinceSeen: number[] = [];
  let unmatched = 0;
  for (const { at, text } of notified) {
    const indexes = new Set([...text.matchAll(/\d{10}/g)].map((match) => portal.indexOf(match[0])).filter((index) => index !== undefined));
    if (indexes.size === 0) unmatched++;
    for (const index of indexes) {
      const changed = portal.changedAt(index, at);
      const seen = portal.servedTimes(index).find((time) => time >= changed);
      sinceChange.push(at - changed);
      if (seen !== undefined && seen <= at) sinceSeen.push(at - seen);
    }
  }

  // How often each query was really polled: the gaps between two requests for it in the window.
  const gaps: number[] = [];
  for (let index = 0; index < input.queries; index++) {
    const times = portal.servedTimes(index).filter((time) => time >= from && time < to);
    for (let k = 1; k < times.length; k++) gaps.push(times[k]! - times[k - 1]!);
  }
  const changes = portal.changesWithin(from, to).length;

  return {
    seconds,
    portal: {
      perSecond: sum(perSecond) / perSecond.length,
      target: input.queries / input.intervalS,
      min: Math.min(...perSecond),
      max: Math.max(...perSecond),
    },
    polls: { ok: delta('orderbot_watch_polls_total{outcome="ok"}'), failed: delta('orderbot_watch_polls_total') - delta('orderbot_watch_polls_total{outcome="ok"}') },
    pollGap: stats(gaps),
    /** Changes the portal made in the window, and the notifications they are worth (one per watching chat). */
    changes: { made: changes, worth: changes * input.chatsPerQuery, found: delta('watch_changes_total') },
    notifications: { received: notified.length, sent: delta('orderbot_notifications_total{outcome="sent"}'), other: delta('orderbot_notifications_total') - delta('orderbot_notifications_total{outcome="sent"}'), unmatched },
    sinceChange: stats(sinceChange),
    sinceSeen: stats(sinceSeen),
    /** notification_delay_seconds observed in the window: from the poll that found a change to Telegram's answer. */
    histogram: {
      n: delta('notification_delay_seconds_count'),
      p50: histogramQuantile(metricsBefore, metricsAfter, 'notification_delay_seconds', 0.5),
      p99: histogramQuantile(metricsBefore, metricsAfter, 'notification_delay_seconds', 0.99),
    },
  };
};
