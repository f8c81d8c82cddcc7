// A small metrics registry rendered in the Prometheus text exposition format 0.0.4.
// Cardinality is bounded twice: callers pass only values from closed sets (update types,
// portal endpoint names, outcomes), and each metric keeps at most `maxSeries` label sets;
// any further set is counted under every label set to "other", so a bug that leaks ids into
// a label costs one extra series, not unbounded memory.

type Labels<L extends string> = Readonly<Record<L, string>>;

/** A metric without labels takes `{}`: `hits.inc({})`. */
export type Counter<L extends string = never> = {
  inc(labels: Labels<L>, by?: number): void;
};

/** A value that goes up and down (watches, pending notifications), as last set. */
export type Gauge<L extends string = never> = {
  set(labels: Labels<L>, value: number): void;
};

export type Histogram<L extends string = never> = {
  observe(labels: Labels<L>, value: number): void;
  /** Starts a timer; calling the result observes the elapsed seconds and returns them. */
  startTimer(labels: Labels<L>): () => number;
};

type MetricOptions<L extends string> = { name: string; help: string; labelNames?: readonly L[]; maxSeries?: number };
type HistogramOptions<L extends string> = MetricOptions<L> & { buckets: readonly number[] };

export type MetricsRegistry = {
  counter<L extends string = never>(options: MetricOptions<L>): Counter<L>;
  histogram<L extends string = never>(options: HistogramOptions<L>): Histogram<L>;
  gauge<L extends string = never>(options: MetricOptions<L>): Gauge<L>;
  render(): string;
};

export const DEFAULT_MAX_SERIES = 100;
export const OVERFLOW_LABEL_VALUE = 'other';
export const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export const escapeLabelValue = (value: string): string => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
const escapeHelp = (text: string): string => text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));

export const formatValue = (value: number): string => {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
};

type Series<S> = { labels: string; state: S };

/** Label values to the series they name, one map level per label, the last level holding the series. */
type Known<S> = Map<string, Known<S> | Series<S>>;

/**
 * Label sets of one metric, keyed by their rendered form, capped at maxSeries. Each label set is
 * rendered once, when first seen: later observations find their series by the label values alone.
 */
const createSeriesMap = <L extends string, S>(labelNames: readonly L[], maxSeries: number, init: () => S) => {
  const series = new Map<string, Series<S>>();
  const render = (values: readonly string[]) => values.map((v, k) => `${labelNames[k]}="${escapeLabelValue(v)}"`).join(',');
  const overflowKey = render(labelNames.map(() => OVERFLOW_LABEL_VALUE));
  // Only label sets with a series of their own are remembered: sets folded into "other" (a leak of
  // ids into a label) take the slow path each time rather than grow this map without bound.
  const known: Known<S> = new Map();
  const last = labelNames.length - 1;

  const lookUp = (labels: Labels<L>): Series<S> | undefined => {
    let level = known;
    for (let k = 0; k < last; k += 1) {
      const next = level.get(labels[labelNames[k]!]);
      if (next === undefined) return undefined;
      level = next as Known<S>;
    }
    return level.get(labels[labelNames[last]!]) as Series<S> | undefined;
  };

  const add = (labels: Labels<L>): Series<S> => {
    const values = labelNames.map((name) => {
      const value = labels[name];
      if (typeof value !== 'string') throw new TypeError(`metrics: label "${name}" is missing`);
      return value;
    });
    const own = render(values);
    const key = !series.has(own) && series.size >= maxSeries ? overflowKey : own;
    let entry = series.get(key);
    if (entry === undefined) {
      entry = { labels: key, state: init() };
      series.set(key, entry);
    }
    if (key === own) {
      let level = known;
      for (let k = 0; k < last; k += 1) {
        let next = level.get(values[k]!) as Known<S> | undefined;
        if (next === undefined) level.set(values[k]!, (next = new Map()));
        level = next;
      }
      level.set(values[last]!, entry);
    }
    return entry;
  };

  // A metric without labels has exactly one series: expose it from the start, at 0.
  const only = labelNames.length === 0 ? add({} as Labels<L>) : undefined;

  return {
    series,
    get(labels: Labels<L>): S {
      return (only ?? lookUp(labels) ?? add(labels)).state;
    },
  };
};

const braces = (labels: string): string => (labels === '' ? '' : `{${labels}}`);
const joinLabels = (...parts: string[]): string => parts.filter((part) => part !== '').join(',');

export const createMetricsRegistry = (): MetricsRegistry => {
  const renderers = new Map<string, () => string[]>();

  const register = <L extends string>({ name, help, labelNames = [], maxSeries = DEFAULT_MAX_SERIES }: MetricOptions<L>, type: string) => {
    if (!METRIC_NAME.test(name)) throw new Error(`metrics: invalid metric name "${name}"`);
    if (renderers.has(name)) throw new Error(`metrics: "${name}" is already registered`);
    for (const label of labelNames) {
      if (!LABEL_NAME.test(label) || label.startsWith('__')) throw new Error(`metrics: invalid label name "${label}"`);
    }
    if (new Set(labelNames).size !== labelNames.length) throw new Error(`metrics: duplicate label names in "${name}"`);
    if (!(maxSeries >= 1)) throw new Error(`metrics: maxSeries of "${name}" must be at least 1`);
    return { header: [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`], labelNames, maxSeries };
  };

  /** The series of a counter or a gauge: one number per label set. */
  const singleValued = <L extends string>(options: MetricOptions<L>, type: 'counter' | 'gauge') => {
    const { header, labelNames, maxSeries } = register(options, type);
    const values = createSeriesMap(labelNames, maxSeries, () => ({ value: 0 }));
    renderers.set(options.name, () => [
      ...header,
      ...[...values.series.values()].map(({ labels, state }) => `${options.name}${braces(labels)} ${formatValue(state.value)}`),
    ]);
    return values;
  };

  return {
    counter<L extends string = never>(options: MetricOptions<L>): Counter<L> {
      const values = singleValued(options, 'counter');
      return {
        inc(labels, by = 1) {
          if (!(by >= 0)) throw new RangeError(`metrics: counter "${options.name}" cannot decrease`);
          values.get(labels).value += by;
        },
      };
    },

    gauge<L extends string = never>(options: MetricOptions<L>): Gauge<L> {
      const values = singleValued(options, 'gauge');
      return {
        set(labels, value) {
          values.get(labels).value = value;
        },
      };
    },

    histogram<L extends string = never>(options: HistogramOptions<L>): Histogram<L> {
      const { header, labelNames, maxSeries } = register(options, 'histogram');
      if ((labelNames as readonly string[]).includes('le')) throw new Error(`metrics: histogram "${options.name}" cannot use the label "le"`);
      const buckets = [...options.buckets];
      if (buckets.length === 0 || buckets.some((b, k) => !Number.isFinite(b) || (k > 0 && b <= buckets[k - 1]!))) {
        throw new Error(`metrics: buckets of "${options.name}" must be finite and increasing`);
      }
      const values = createSeriesMap(labelNames, maxSeries, () => ({ counts: buckets.map(() => 0), sum: 0, count: 0 }));
      const { name } = options;
      renderers.set(name, () => [
        ...header,
        ...[...values.series.values()].flatMap(({ labels, state }) => [
          ...buckets.map((le, k) => `${name}_bucket{${joinLabels(labels, `le="${formatValue(le)}"`)}} ${state.counts[k]}`),
          `${name}_bucket{${joinLabels(labels, 'le="+Inf"')}} ${state.count}`,
          `${name}_sum${braces(labels)} ${formatValue(state.sum)}`,
          `${name}_count${braces(labels)} ${state.count}`,
        ]),
      ]);
      const observe = (labels: Labels<L>, value: number) => {
        if (Number.isNaN(value)) return;
        const state = values.get(labels);
        // Buckets are cumulative: an observation counts in every bucket whose bound it fits.
        for (let k = buckets.length - 1; k >= 0 && value <= buckets[k]!; k -= 1) state.counts[k]! += 1;
        state.sum += value;
        state.count += 1;
      };
      return {
        observe,
        startTimer(labels) {
          // performance.now() is a double; hrtime.bigint() allocates two BigInts per timing.
          const start = performance.now();
          return () => {
            const seconds = (performance.now() - start) / 1000;
            observe(labels, seconds);
            return seconds;
          };
        },
      };
    },

    render(): string {
      const lines = [...renderers.values()].flatMap((render) => render());
      return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
    },
  };
};
