import promClient from 'prom-client';

// The metrics registry: prom-client (the Prometheus client Node services use), behind the small
// interface the bot's code calls. Its default metrics are the process and runtime series
// operators look for (resident memory, CPU, event-loop delay, heap, GC, open handles), once per
// process. Cardinality is bounded twice: callers pass only values from closed sets (update types,
// portal endpoint names, outcomes), and each metric keeps at most `maxSeries` label sets; any
// further set is counted under every label set to "other", so a bug that leaks ids into a label
// costs one extra series, not unbounded memory.

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
  /** The text exposition format 0.0.4: the process's series, then this registry's. */
  render(): Promise<string>;
  readonly contentType: string;
};

export const DEFAULT_MAX_SERIES = 100;
export const OVERFLOW_LABEL_VALUE = 'other';
export const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Label values to the labels object passed on, one map level per label, the last level holding it. */
type Known = Map<string, Known | object>;

/**
 * The labels object each label set is counted under: its own (made once, when first seen), or
 * the "other" set past maxSeries. Later observations find it by the label values alone.
 */
const createLabelSets = <L extends string>(name: string, labelNames: readonly L[], maxSeries: number) => {
  const overflow = Object.freeze(Object.fromEntries(labelNames.map((label) => [label, OVERFLOW_LABEL_VALUE])));
  // Only label sets with a series of their own are remembered: sets folded into "other" (a leak of
  // ids into a label) take the slow path each time rather than grow this map without bound.
  const known: Known = new Map();
  let count = 0;
  const last = labelNames.length - 1;
  const none = Object.freeze({});

  const lookUp = (labels: Labels<L>): object | undefined => {
    let level = known;
    for (let k = 0; k < last; k += 1) {
      const next = level.get(labels[labelNames[k]!]);
      if (next === undefined) return undefined;
      level = next as Known;
    }
    return level.get(labels[labelNames[last]!]);
  };

  const add = (labels: Labels<L>): object => {
    const values = labelNames.map((label) => {
      const value = labels[label];
      if (typeof value !== 'string') throw new TypeError(`metrics: label "${label}" of "${name}" is missing`);
      return value;
    });
    if (count >= maxSeries) return overflow;
    const own = Object.freeze(Object.fromEntries(labelNames.map((label, k) => [label, values[k]])));
    let level = known;
    for (let k = 0; k < last; k += 1) {
      let next = level.get(values[k]!) as Known | undefined;
      if (next === undefined) level.set(values[k]!, (next = new Map()));
      level = next;
    }
    level.set(values[last]!, own);
    count += 1;
    return own;
  };

  return (labels: Labels<L>): object => (last < 0 ? none : (lookUp(labels) ?? add(labels)));
};

/** The process's own series, collected once per process: prom-client watches GC and the event loop for them. */
let processRegistry: promClient.Registry | undefined;
const processMetrics = (): promClient.Registry => {
  if (processRegistry === undefined) {
    processRegistry = new promClient.Registry();
    promClient.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
};

export type RegistryOptions = {
  /** Include the process and runtime series (default true). */
  process?: boolean;
};

export const createMetricsRegistry = ({ process: withProcess = true }: RegistryOptions = {}): MetricsRegistry => {
  const registry = new promClient.Registry();

  const check = <L extends string>({ name, labelNames = [], maxSeries = DEFAULT_MAX_SERIES }: MetricOptions<L>) => {
    if (!METRIC_NAME.test(name)) throw new Error(`metrics: invalid metric name "${name}"`);
    if (registry.getSingleMetric(name) !== undefined) throw new Error(`metrics: "${name}" is already registered`);
    for (const label of labelNames) {
      if (!LABEL_NAME.test(label) || label.startsWith('__')) throw new Error(`metrics: invalid label name "${label}"`);
    }
    if (new Set(labelNames).size !== labelNames.length) throw new Error(`metrics: duplicate label names in "${name}"`);
    if (!(maxSeries >= 1)) throw new Error(`metrics: maxSeries of "${name}" must be at least 1`);
    return { labelNames: [...labelNames], labelsOf: createLabelSets(name, labelNames, maxSeries) };
  };

  return {
    counter<L extends string = never>(options: MetricOptions<L>): Counter<L> {
      const { labelNames, labelsOf } = check(options);
      const counter = new promClient.Counter({ name: options.name, help: options.help, labelNames, registers: [registry] });
      return {
        inc(labels, by = 1) {
          if (!(by >= 0)) throw new RangeError(`metrics: counter "${options.name}" cannot decrease`);
          counter.inc(labelsOf(labels) as promClient.LabelValues<string>, by);
        },
      };
    },

    gauge<L extends string = never>(options: MetricOptions<L>): Gauge<L> {
      const { labelNames, labelsOf } = check(options);
      const gauge = new promClient.Gauge({ name: options.name, help: options.help, labelNames, registers: [registry] });
      return {
        set(labels, value) {
          gauge.set(labelsOf(labels) as promClient.LabelValues<string>, value);
        },
      };
    },

    histogram<L extends string = never>(options: HistogramOptions<L>): Histogram<L> {
      const { labelNames, labelsOf } = check(options);
      if ((labelNames as readonly string[]).includes('le')) throw new Error(`metrics: histogram "${options.name}" cannot use the label "le"`);
      const buckets = [...options.buckets];
      if (buckets.length === 0 || buckets.some((b, k) => !Number.isFinite(b) || (k > 0 && b <= buckets[k - 1]!))) {
        throw new Error(`metrics: buckets of "${options.name}" must be finite and increasing`);
      }
      const histogram = new promClient.Histogram({ name: options.name, help: options.help, labelNames, buckets, registers: [registry] });
      const observe = (labels: Labels<L>, value: number) => {
        if (Number.isNaN(value)) return;
        histogram.observe(labelsOf(labels) as promClient.LabelValues<string>, value);
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

    async render(): Promise<string> {
      const own = await registry.metrics();
      return withProcess ? `${await processMetrics().metrics()}${own}` : own;
    },

    contentType: registry.contentType,
  };
};
