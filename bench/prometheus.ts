// Reading the bot's GET /metrics (Prometheus text) in the benchmark.

/** The sum of a metric's series in a Prometheus text. */
export const metric = (text: string, name: string): number =>
  text
    .split('\n')
    .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);

/** A histogram's cumulative bucket counts by upper bound (+Inf last), from a Prometheus text. */
const buckets = (text: string, name: string): Array<[number, number]> =>
  text
    .split('\n')
    .flatMap((line): Array<[number, number]> => {
      const match = new RegExp(`^${name}_bucket\\{.*le="([^"]+)"\\} (\\S+)$`).exec(line);
      return match ? [[match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2])]] : [];
    })
    .sort(([a], [b]) => a - b);

/**
 * The q-quantile (0–1) of what a histogram observed between two scrapes, interpolated linearly
 * within the bucket it falls in, as Prometheus' histogram_quantile does (the lowest bucket from
 * 0; a quantile in +Inf reads as the highest finite bound). NaN when nothing was observed.
 */
export const histogramQuantile = (before: string, after: string, name: string, q: number): number => {
  const start = new Map(buckets(before, name));
  const counts = buckets(after, name).map(([le, count]): [number, number] => [le, count - (start.get(le) ?? 0)]);
  const total = counts.at(-1)?.[1] ?? 0;
  if (total === 0) return NaN;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [le, count] of counts) {
    if (count >= rank) return le === Infinity ? lower : lower + ((le - lower) * (rank - below)) / (count - below);
    [lower, below] = [le, count];
  }
  return lower;
};

/** Several processes' Prometheus texts as one: each series (name and labels) summed across them. */
export const sumMetrics = (texts: readonly string[]): string => {
  const series = new Map<string, number>();
  for (const line of texts.flatMap((text) => text.split('\n'))) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), (series.get(line.slice(0, at)) ?? 0) + Number(line.slice(at + 1)));
  }
  return [...series].map(([name, value]) => `${name} ${value}`).join('\n');
};
