import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BOTS, line, measure, startBot, stopBot, type BotName, type FloorOptions, type Measured } from './floor-measure.ts';
import { usersPair, type UsersRun } from './floor-users.ts';
import { startDelayedPortal } from './portal.ts';

// Issue 14's scenario: the bot beside the two floors, the framework-free bot (bench/floor-bot.ts:
// undici, one portal GET and one sendMessage per update) and the bare Telegraf bot, each started
// fresh on its own lean Bot API (the same emulator) against one demo portal at 0 ms, taking turns
// run after run (each started and measured through bench/floor-measure.ts); then the bot under
// the same saturated load from 100 users and from 20,000 distinct users: pairs of fresh bots, one
// for each, measured in slices taking turns (bench/floor-users.ts).

export type BotRun = { paced: Measured; saturated: Measured };
export type FloorResult = {
  runs: Array<Record<BotName, BotRun>>;
  usersRuns: Array<{ few: UsersRun; many: UsersRun }>;
  /** The machine's 1-minute load average at the start and at the end: other work sharing the cores. */
  load: { start: number; end: number };
};

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

export const runFloorBench = async (options: FloorOptions): Promise<FloorResult> => {
  const { log, seconds, warmUpMs, rate, users } = options;
  const portal = await startDelayedPortal(0);
  const result: FloorResult = { runs: [], usersRuns: [], load: { start: loadAverage(), end: NaN } };
  try {
    for (let run = 1; run <= options.runs; run++) {
      const byBot: Partial<Record<BotName, BotRun>> = {};
      for (const name of options.bots ?? BOTS) {
        const bot = await startBot(name, options, portal.url, join(options.temp, `floor-${name}-${run}.log`));
        const { api, child } = bot;
        try {
          await measure(api, child, { users, ms: warmUpMs, rate });
          const paced = await measure(api, child, { users, ms: seconds * 1000, rate });
          const saturated = await measure(api, child, { users, ms: seconds * 1000 });
          log(`  run ${run}, ${name}: paced ${rate}/s ${line(paced)}; saturated ${line(saturated)}`);
          byBot[name] = { paced, saturated };
        } finally {
          await stopBot(bot);
        }
      }
      result.runs.push(byBot as Record<BotName, BotRun>);
    }
    for (let pairNumber = 1; options.usersPhase !== false && pairNumber <= (options.usersRuns ?? options.runs); pairNumber++) {
      result.usersRuns.push(await usersPair(options, portal.url, pairNumber));
    }
  } finally {
    await portal.close();
  }
  result.load.end = loadAverage();
  return result;
};
