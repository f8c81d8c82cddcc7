import type { BotName, FloorOptions, Measured } from './floor-measure.ts';
import type { FloorResult } from './floor.ts';
import { SLICES_PER_SIDE } from './floor-users.ts';
import { machine, nodeFlags } from './proc.ts';
import type { Markers } from './sections.ts';

// The "Cost per update against the floor" section of BENCHMARKS.md (issue 14): every figure the
// median of the runs with their range, every ratio taken within one run and then its median.

export const FLOOR_MARKERS: Markers = {
  begin: '<!-- floor bench: written by `npm run bench` and `npm run bench -- --floor`, kept by the other runs -->',
  end: '<!-- /floor bench -->',
};

export const median = (values: number[]): number => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `1.23 (1.10–1.40)`: the median and the range of the runs. */
export const spread = (values: number[], digits: number): string => {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '–';
  const m = median(finite).toFixed(digits);
  return finite.length === 1 ? m : `${m} (${Math.min(...finite).toFixed(digits)}–${Math.max(...finite).toFixed(digits)})`;
};

const NAMES: Record<BotName, string> = {
  floor: 'floor: framework-free (bench/floor-bot.ts)',
  bare: 'bare Telegraf (bench/bare-bot.ts)',
  bot: 'the bot (dist/main.js, built from src/)',
};

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;

export type Target = { target: string; measured: string; met: boolean };

export const floorTargets = (result: FloorResult): Target[] => {
  const perRun = (pick: (run: FloorResult['runs'][number]) => number) => result.runs.map(pick);
  const cpuRatio = perRun((r) => r.bot.saturated.cpuMsPerUpdate / r.floor.saturated.cpuMsPerUpdate);
  const throughputRatio = perRun((r) => r.bot.saturated.throughput / r.bare.saturated.throughput);
  const rssDelta = perRun((r) => r.bot.saturated.rssAfterMb - r.bare.saturated.rssAfterMb);
  const fileDelta = perRun((r) => r.bot.saturated.rssFileMb - r.bare.saturated.rssFileMb);
  const usersRatio = result.usersRuns.map(({ few, many }) => many.saturated.throughput / few.saturated.throughput);
  const many = result.usersRuns[0]?.many.distinct ?? 0;
  const few = result.usersRuns[0]?.few.distinct ?? 0;
  return [
    { target: 'CPU per update, saturated lookup mix ≤ 1.5× the floor bot’s', measured: `${spread(cpuRatio, 2)}×`, met: median(cpuRatio) <= 1.5 },
    { target: 'throughput ≥ 0.8× the bare Telegraf bot’s (saturated)', measured: `${spread(throughputRatio, 2)}×`, met: median(throughputRatio) >= 0.8 },
    // Without the users phase (--many-users 0) there is nothing to judge.
    ...(result.usersRuns.length === 0
      ? []
      : [{ target: `${many.toLocaleString('en')} distinct users: throughput ≥ 0.9× that at ${few}`, measured: `${spread(usersRatio, 2)}×`, met: median(usersRatio) >= 0.9 }]),
    {
      target: 'RSS after the sustained run ≤ the bare bot’s + 40 MB',
      measured: `+${spread(rssDelta, 1)} MB, of it file-backed (the node binary's code and ICU data) +${spread(fileDelta, 1)}`,
      met: median(rssDelta) <= 40,
    },
  ];
};

export const renderFloorSection = (result: FloorResult, options: Pick<FloorOptions, 'seconds' | 'warmUpMs' | 'rate' | 'users' | 'concurrency'>, command: string, changes: string): string => {
  const m = machine();
  const cells = (runs: Measured[]) => [
    spread(runs.map((x) => x.throughput), 0),
    `${spread(runs.map((x) => x.p50), 1)} / ${spread(runs.map((x) => x.p95), 1)} / ${spread(runs.map((x) => x.p99), 1)}`,
    spread(runs.map((x) => x.cpuMsPerUpdate), 3),
    `${spread(runs.map((x) => x.cpuShare), 0)} / ${spread(runs.map((x) => x.benchCpuShare), 0)}`,
    `${median(runs.map((x) => x.lookups)).toFixed(0)} / ${median(runs.map((x) => x.pages)).toFixed(0)}`,
    String(runs.reduce((sum, x) => sum + x.timeouts, 0)),
    `${spread(runs.map((x) => x.rssAfterMb), 1)} / ${spread(runs.map((x) => x.rssFileMb), 1)}`,
  ];
  const header = [
    row(['bot, phase', 'updates/s', 'latency p50 / p95 / p99 ms', 'CPU ms/update', 'CPU % of a core, bot / bench', 'lookups / pages', 'timeouts', 'RSS after MB / of it file-backed']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const bots = (['floor', 'bare', 'bot'] as const).flatMap((name) => [
    row([`${NAMES[name]}, paced ${options.rate}/s`, ...cells(result.runs.map((r) => r[name].paced))]),
    row([`${NAMES[name]}, saturated`, ...cells(result.runs.map((r) => r[name].saturated))]),
  ]);
  const users = (result.usersRuns.length === 0 ? [] : (['few', 'many'] as const)).map((key) => {
    const runs = result.usersRuns.map((pair) => pair[key]);
    return row([`the bot, ${runs[0]?.distinct.toLocaleString('en')} distinct users, saturated`, ...cells(runs.map((x) => x.saturated))]);
  });
  const usersInFlight = result.usersRuns[0]?.few.users ?? 0;
  const usersPhase = result.usersRuns.length === 0 ? ' No users phase in this run (--many-users 0).' : ` Then the bot alone, saturated with ${usersInFlight} actions in flight, once from ${usersInFlight} users and once from ${result.usersRuns[0]?.many.distinct.toLocaleString('en')} distinct users (each of the ${usersInFlight} slots acts as a different user each turn, in rotation), in ${result.usersRuns.length} pairs of fresh bots, one bot for each side, both running: each first warmed up with ${result.usersRuns[0]?.many.distinct.toLocaleString('en')} lookups from the same users it is then measured with, each slot taking as many turns as a slot has users on the many-users side (so that each of the ${result.usersRuns[0]?.many.distinct.toLocaleString('en')} has acted once within the minute before the measurement, and both sides start with the same portal cache), then the two measured in ${SLICES_PER_SIDE} slices each of ${Number((options.seconds / SLICES_PER_SIDE).toFixed(1))} s, taking turns (A B B A A B …, the ${usersInFlight} users first in odd pairs, the ${result.usersRuns[0]?.many.distinct.toLocaleString('en')} in even ones, in the warm-up as in the slices; only one bot has load at a time, and the rotation of users goes on from slice to slice), so that a change in the machine's speed within a pair weighs on both sides alike. Both take lookups only: a user's first turn can only be a lookup (it has no answer to press a button on), and with 20,000 users most turns are a first, so presses would make the two mixes differ.`;
  return [
    FLOOR_MARKERS.begin,
    '## Cost per update against the floor (issue 14)',
    '',
    `Generated by \`${command}\` (bench/floor.ts) on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${m.cores} cores (${m.cpu}), Node ${m.node}, node flags \`${nodeFlags().join(' ') || '(none)'}\` for every bot; load average (1 min) ${result.load.start.toFixed(2)} at the start, ${result.load.end.toFixed(2)} at the end (the saturated phases alone bring it near ${m.cores}; well above that, other work shared the cores and inflated every figure). Source measured: ${changes}`,
    '',
    `Three bots, each started fresh on its own lean Bot API (bench/bot-api.ts, the same emulator) and asking one demo portal at 0 ms (bench/portal.ts), taking turns, ${result.runs.length} runs: the **floor** (bench/floor-bot.ts: undici only, long polling like Telegraf, for each update one portal GET, the query the bot makes for that lookup or page, and one sendMessage: the least HTTP work an update needs), the **bare Telegraf** bot (a fixed text, no portal) and **the bot** as production runs it (CONCURRENCY ${options.concurrency}, log level info, PORTAL_CACHE_SECONDS 30, FLOOD_LIMIT_PER_MINUTE raised). The load of bench/load.ts, ${options.users} users: ${options.warmUpMs / 1000} s warm-up, ${options.seconds} s paced at ${options.rate}/s, ${options.seconds} s saturated.${usersPhase}`,
    '',
    'Each figure is the median of the runs, the range in brackets. CPU ms/update: user + system time of the bot process from /proc over the phase, divided by the updates handled (the steadiest figure on a shared machine). CPU % of a core: the same time over the phase’s wall time, beside the benchmark process’s own (its emulator, load and portal share the 2 cores): a paced phase’s latency tail grows as the bot’s share nears 100 %. Latency: from the update enqueued in the emulator to the answering call. RSS: after the saturated phase. Ratios are taken within each run (the bots of one run share its conditions), then their median and range.',
    '',
    ...header,
    ...bots,
    ...users,
    '',
    '| budget (issue 29) | measured | |',
    '| --- | --- | --- |',
    ...floorTargets(result).map((t) => row([t.target, t.measured, t.met ? 'met' : '**missed**'])),
    '',
    `Runs: saturated CPU ms/update ${(['floor', 'bare', 'bot'] as const).map((name) => `${name} ${result.runs.map((r) => r[name].saturated.cpuMsPerUpdate.toFixed(3)).join(', ')}`).join('; ')}; saturated updates/s ${(['floor', 'bare', 'bot'] as const).map((name) => `${name} ${result.runs.map((r) => r[name].saturated.throughput.toFixed(0)).join(', ')}`).join('; ')}${result.usersRuns.length === 0 ? '' : `; distinct users updates/s ${result.usersRuns.map((p) => `${p.few.saturated.throughput.toFixed(0)} vs ${p.many.saturated.throughput.toFixed(0)}`).join(', ')}`}.`,
    FLOOR_MARKERS.end,
  ].join('\n');
};
