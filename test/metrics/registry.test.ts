import { describe, expect, it } from 'vitest';
import { createBotMetrics, updateTypeOf } from '../../src/metrics/bot-metrics.ts';
import { createMetricsRegistry } from '../../src/metrics/registry.ts';

describe('createMetricsRegistry', () => {
  it('renders counters and histograms in the text exposition format', () => {
    const registry = createMetricsRegistry();
    const requests = registry.counter<'endpoint' | 'outcome'>({ name: 'requests_total', help: 'Requests.', labelNames: ['endpoint', 'outcome'] });
    registry.counter({ name: 'hits_total', help: 'Cache hits.\nWith a \\ backslash.' });
    const duration = registry.histogram<'endpoint'>({ name: 'duration_seconds', help: 'Duration.', labelNames: ['endpoint'], buckets: [0.1, 1] });
    requests.inc({ endpoint: 'order', outcome: 'ok' });
    requests.inc({ endpoint: 'order', outcome: 'ok' }, 2);
    requests.inc({ endpoint: 'say "hi"\\\n', outcome: 'timeout' });
    duration.observe({ endpoint: 'order' }, 0.05);
    duration.observe({ endpoint: 'order' }, 0.5);
    duration.observe({ endpoint: 'order' }, 3);
    expect(registry.render()).toBe(
      [
        '# HELP requests_total Requests.',
        '# TYPE requests_total counter',
        'requests_total{endpoint="order",outcome="ok"} 3',
        'requests_total{endpoint="say \\"hi\\"\\\\\\n",outcome="timeout"} 1',
        '# HELP hits_total Cache hits.\\nWith a \\\\ backslash.',
        '# TYPE hits_total counter',
        'hits_total 0',
        '# HELP duration_seconds Duration.',
        '# TYPE duration_seconds histogram',
        'duration_seconds_bucket{endpoint="order",le="0.1"} 1',
        'duration_seconds_bucket{endpoint="order",le="1"} 2',
        'duration_seconds_bucket{endpoint="order",le="+Inf"} 3',
        'duration_seconds_sum{endpoint="order"} 3.55',
        'duration_seconds_count{endpoint="order"} 3',
        '',
      ].join('\n'),
    );
  });

  it('renders a histogram without labels from the start', () => {
    const registry = createMetricsRegistry();
    registry.histogram({ name: 'latency_seconds', help: 'Latency.', buckets: [1] });
    expect(registry.render()).toBe(
      [
        '# HELP latency_seconds Latency.',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{le="1"} 0',
        'latency_seconds_bucket{le="+Inf"} 0',
        'latency_seconds_sum 0',
        'latency_seconds_count 0',
        '',
      ].join('\n'),
    );
  });

  it('folds label sets past maxSeries into one "other" series', () => {
    const registry = createMetricsRegistry();
    const byUser = registry.counter<'user'>({ name: 'by_user_total', help: 'Leaky.', labelNames: ['user'], maxSeries: 2 });
    for (const user of ['1', '2', '3', '4', '1']) byUser.inc({ user });
    expect(registry.render().split('\n').slice(2, -1)).toEqual(['by_user_total{user="1"} 2', 'by_user_total{user="2"} 1', 'by_user_total{user="other"} 2']);
  });

  it('keeps each label set apart when label sets share values, before and after the cap', () => {
    const registry = createMetricsRegistry();
    const calls = registry.counter<'a' | 'b'>({ name: 'calls_total', help: 'Calls.', labelNames: ['a', 'b'], maxSeries: 4 });
    const sets = [
      { a: 'x', b: 'y' },
      { a: 'x', b: 'z' },
      { a: 'x,b="y"', b: '' },
      { a: 'y', b: 'x' },
      { a: 'x', b: 'y' },
      { a: 'late', b: 'y' },
      { a: 'x', b: 'late' },
      { a: 'x', b: 'z' },
      { a: 'late', b: 'y' },
    ];
    for (const labels of sets) calls.inc(labels);
    expect(registry.render().split('\n').slice(2, -1)).toEqual([
      'calls_total{a="x",b="y"} 2',
      'calls_total{a="x",b="z"} 2',
      'calls_total{a="x,b=\\"y\\"",b=""} 1',
      'calls_total{a="y",b="x"} 1',
      'calls_total{a="other",b="other"} 3',
    ]);
    expect(() => calls.inc({ a: 'x' } as { a: string; b: string })).toThrow(/label "b" is missing/);
  });

  it('refuses bad names, duplicates, decreasing counters and missing labels', () => {
    const registry = createMetricsRegistry();
    expect(() => registry.counter({ name: 'bad-name', help: '' })).toThrow(/invalid metric name/);
    expect(() => registry.counter({ name: 'ok_total', help: '', labelNames: ['__reserved'] })).toThrow(/invalid label name/);
    expect(() => registry.histogram({ name: 'h', help: '', labelNames: ['le'], buckets: [1] })).toThrow(/"le"/);
    expect(() => registry.histogram({ name: 'h2', help: '', buckets: [1, 1] })).toThrow(/increasing/);
    const counter = registry.counter<'type'>({ name: 'c_total', help: '', labelNames: ['type'] });
    expect(() => registry.counter({ name: 'c_total', help: '' })).toThrow(/already registered/);
    expect(() => counter.inc({ type: 'a' }, -1)).toThrow(/cannot decrease/);
    expect(() => counter.inc({} as { type: string })).toThrow(/label "type" is missing/);
  });

  it('times with startTimer', async () => {
    const registry = createMetricsRegistry();
    const histogram = registry.histogram({ name: 't_seconds', help: 'T.', buckets: [0.001, 10] });
    const stop = histogram.startTimer({});
    await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = stop();
    expect(seconds).toBeGreaterThan(0.004);
    expect(registry.render()).toContain('t_seconds_bucket{le="0.001"} 0\nt_seconds_bucket{le="10"} 1\n');
  });
});

describe('createBotMetrics', () => {
  it('predefines the bot metrics', () => {
    const metrics = createBotMetrics();
    metrics.updates.inc({ type: updateTypeOf({ update_id: 1, callback_query: {} }) });
    metrics.portalRequests.inc({ endpoint: 'order', outcome: 'ok' });
    metrics.portalDuration.observe({ endpoint: 'order' }, 0.2);
    metrics.updateDuration.observe({ type: 'message' }, 0.03);
    metrics.portalCacheHits.inc({});
    const text = metrics.registry.render();
    expect(text).toContain('# TYPE bot_updates_total counter\nbot_updates_total{type="callback_query"} 1\n');
    expect(text).toContain('portal_requests_total{endpoint="order",outcome="ok"} 1\n');
    expect(text).toContain('portal_request_duration_seconds_bucket{endpoint="order",le="0.05"} 0\n');
    expect(text).toContain('portal_request_duration_seconds_bucket{endpoint="order",le="0.25"} 1\n');
    expect(text).toContain('portal_request_duration_seconds_bucket{endpoint="order",le="10"} 1\n');
    expect(text).toContain('update_duration_seconds_bucket{type="message",le="0.05"} 1\n');
    expect(text).toContain('portal_cache_hits_total 1\n');
    expect(text).toContain('# TYPE portal_cache_misses_total counter\nportal_cache_misses_total 0\n');
  });
});

describe('gauges', () => {
  it('render the value last set, per label set, from 0', () => {
    const registry = createMetricsRegistry();
    const pending = registry.gauge({ name: 'pending', help: 'Pending.' });
    const byKind = registry.gauge<'kind'>({ name: 'things', help: 'Things.', labelNames: ['kind'] });
    expect(registry.render()).toBe('# HELP pending Pending.\n# TYPE pending gauge\npending 0\n# HELP things Things.\n# TYPE things gauge\n');
    pending.set({}, 5);
    pending.set({}, 3);
    byKind.set({ kind: 'a' }, 2);
    expect(registry.render()).toContain('pending 3\n');
    expect(registry.render()).toContain('things{kind="a"} 2\n');
  });
});
