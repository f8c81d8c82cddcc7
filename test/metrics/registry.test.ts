import { describe, expect, it } from 'vitest';
import { createBotMetrics, updateTypeOf } from '../../src/metrics/bot-metrics.ts';
import { createMetricsRegistry } from '../../src/metrics/registry.ts';
import packageJson from '../../package.json' with { type: 'json' };

/** The exposition text's sample lines (no comments, no blank lines). */
const samples = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

describe('createMetricsRegistry', () => {
  it('renders counters and histograms in the text exposition format, help and label values escaped', async () => {
    const registry = createMetricsRegistry({ process: false });
    const requests = registry.counter<'endpoint' | 'outcome'>({ name: 'requests_total', help: 'Requests.', labelNames: ['endpoint', 'outcome'] });
    registry.counter({ name: 'hits_total', help: 'Cache hits.\nWith a \\ backslash.' });
    const duration = registry.histogram<'endpoint'>({ name: 'duration_seconds', help: 'Duration.', labelNames: ['endpoint'], buckets: [0.1, 1] });
    requests.inc({ endpoint: 'order', outcome: 'ok' });
    requests.inc({ endpoint: 'order', outcome: 'ok' }, 2);
    requests.inc({ endpoint: 'say "hi"\\\n', outcome: 'timeout' });
    duration.observe({ endpoint: 'order' }, 0.05);
    duration.observe({ endpoint: 'order' }, 0.5);
    duration.observe({ endpoint: 'order' }, 3);
    const text = await registry.render();
    expect(text).toContain('# HELP requests_total Requests.\n# TYPE requests_total counter\n');
    expect(text).toContain('# HELP hits_total Cache hits.\\nWith a \\\\ backslash.\n# TYPE hits_total counter\n');
    expect(samples(text)).toEqual([
      'requests_total{endpoint="order",outcome="ok"} 3',
      'requests_total{endpoint="say \\"hi\\"\\\\\\n",outcome="timeout"} 1',
      'hits_total 0',
      'duration_seconds_bucket{le="0.1",endpoint="order"} 1',
      'duration_seconds_bucket{le="1",endpoint="order"} 2',
      'duration_seconds_bucket{le="+Inf",endpoint="order"} 3',
      'duration_seconds_sum{endpoint="order"} 3.55',
      'duration_seconds_count{endpoint="order"} 3',
    ]);
    expect(registry.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('renders a histogram without labels from the start', async () => {
    const registry = createMetricsRegistry({ process: false });
    registry.histogram({ name: 'latency_seconds', help: 'Latency.', buckets: [1] });
    expect(samples(await registry.render())).toEqual(['latency_seconds_bucket{le="1"} 0', 'latency_seconds_bucket{le="+Inf"} 0', 'latency_seconds_sum 0', 'latency_seconds_count 0']);
  });

  it('folds label sets past maxSeries into one "other" series', async () => {
    const registry = createMetricsRegistry({ process: false });
    const byUser = registry.counter<'user'>({ name: 'by_user_total', help: 'Leaky.', labelNames: ['user'], maxSeries: 2 });
    for (const user of ['1', '2', '3', '4', '1']) byUser.inc({ user });
    expect(samples(await registry.render())).toEqual(['by_user_total{user="1"} 2', 'by_user_total{user="2"} 1', 'by_user_total{user="other"} 2']);
  });

  it('keeps each label set apart when label sets share values, before and after the cap', async () => {
    const registry = createMetricsRegistry({ process: false });
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
    expect(samples(await registry.render())).toEqual([
      'calls_total{a="x",b="y"} 2',
      'calls_total{a="x",b="z"} 2',
      'calls_total{a="x,b=\\"y\\"",b=""} 1',
      'calls_total{a="y",b="x"} 1',
      'calls_total{a="other",b="other"} 3',
    ]);
    expect(() => calls.inc({ a: 'x' } as { a: string; b: string })).toThrow(/label "b" of "calls_total" is missing/);
  });

  it('refuses bad names, duplicates, decreasing counters and missing labels', () => {
    const registry = createMetricsRegistry({ process: false });
    expect(() => registry.counter({ name: 'bad-name', help: 'x' })).toThrow(/invalid metric name/);
    expect(() => registry.counter({ name: 'ok_total', help: 'x', labelNames: ['__reserved'] })).toThrow(/invalid label name/);
    expect(() => registry.histogram({ name: 'h', help: 'x', labelNames: ['le'], buckets: [1] })).toThrow(/"le"/);
    expect(() => registry.histogram({ name: 'h2', help: 'x', buckets: [1, 1] })).toThrow(/increasing/);
    const counter = registry.counter<'type'>({ name: 'c_total', help: 'x', labelNames: ['type'] });
    expect(() => registry.counter({ name: 'c_total', help: 'x' })).toThrow(/already registered/);
    expect(() => counter.inc({ type: 'a' }, -1)).toThrow(/cannot decrease/);
    expect(() => counter.inc({} as { type: string })).toThrow(/label "type" of "c_total" is missing/);
  });

  it('times with startTimer', async () => {
    const registry = createMetricsRegistry({ process: false });
    const histogram = registry.histogram({ name: 't_seconds', help: 'T.', buckets: [0.001, 10] });
    const stop = histogram.startTimer({});
    await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = stop();
    expect(seconds).toBeGreaterThan(0.004);
    expect(await registry.render()).toContain('t_seconds_bucket{le="0.001"} 0\nt_seconds_bucket{le="10"} 1\n');
  });

  it('puts the process and runtime series first, once however many registries the process has', async () => {
    const [one, two] = [createMetricsRegistry(), createMetricsRegistry()];
    one.counter({ name: 'orderbot_one_total', help: 'One.' });
    const text = await one.render();
    for (const series of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds', 'nodejs_active_handles_total', 'nodejs_version_info']) {
      expect(text, series).toMatch(new RegExp(`^# TYPE ${series} `, 'm'));
    }
    expect(text.indexOf('process_resident_memory_bytes')).toBeLessThan(text.indexOf('orderbot_one_total'));
    expect((await two.render()).match(/^# TYPE process_resident_memory_bytes /gm)).toHaveLength(1);
    expect(await two.render()).not.toContain('orderbot_one_total');
  });
});

describe('createBotMetrics', () => {
  it('predefines the bot metrics, each under the orderbot_ prefix, with a build_info', async () => {
    const metrics = createBotMetrics(createMetricsRegistry({ process: false }));
    metrics.updates.inc({ type: updateTypeOf({ update_id: 1, callback_query: {} }) });
    metrics.portalRequests.inc({ endpoint: 'order', outcome: 'ok' });
    metrics.portalDuration.observe({ endpoint: 'order' }, 0.2);
    metrics.updateDuration.observe({ type: 'message' }, 0.03);
    metrics.portalCacheHits.inc({});
    metrics.exports.inc({ outcome: 'sent' });
    metrics.telegramRateLimited.inc({ method: 'sendMessage' });
    metrics.circuitState.set({}, 2);
    const text = await metrics.registry.render();
    expect(text).toContain('# TYPE orderbot_updates_total counter\norderbot_updates_total{type="callback_query"} 1\n');
    expect(text).toContain('orderbot_portal_requests_total{endpoint="order",outcome="ok"} 1\n');
    expect(text).toContain('orderbot_portal_request_duration_seconds_bucket{le="0.05",endpoint="order"} 0\n');
    expect(text).toContain('orderbot_portal_request_duration_seconds_bucket{le="0.25",endpoint="order"} 1\n');
    expect(text).toContain('orderbot_update_duration_seconds_bucket{le="0.05",type="message"} 1\n');
    expect(text).toContain('orderbot_portal_cache_hits_total 1\n');
    expect(text).toContain('# TYPE orderbot_portal_cache_misses_total counter\norderbot_portal_cache_misses_total 0\n');
    expect(text).toContain('orderbot_exports_total{outcome="sent"} 1\n');
    expect(text).toContain('orderbot_telegram_rate_limited_total{method="sendMessage"} 1\n');
    expect(text).toContain('orderbot_portal_circuit_state 2\n');
    expect(text).toContain(`orderbot_build_info{version="${packageJson.version}",node="${process.version}"} 1\n`);
    expect(samples(text).every((line) => line.startsWith('orderbot_'))).toBe(true);
  });
});

describe('gauges', () => {
  it('render the value last set, per label set, from 0', async () => {
    const registry = createMetricsRegistry({ process: false });
    const pending = registry.gauge({ name: 'pending', help: 'Pending.' });
    const byKind = registry.gauge<'kind'>({ name: 'things', help: 'Things.', labelNames: ['kind'] });
    expect(samples(await registry.render())).toEqual(['pending 0']);
    pending.set({}, 5);
    pending.set({}, 3);
    byKind.set({ kind: 'a' }, 2);
    expect(samples(await registry.render())).toEqual(['pending 3', 'things{kind="a"} 2']);
  });
});
