import { join } from 'node:path';
import { drive, line, startBot, stopBot, summarize, takeUserIds, type FloorOptions, type Measured, type Running, type Stretch } from './floor-measure.ts';

// The floor bench's users phase (bench/floor.ts): the bot under the same saturated load from 100
// users and from 20,000 distinct users.

export type UsersRun = { users: number; distinct: number; saturated: Measured };

/** Each side of a users pair is measured in this many slices, taking turns with the other's. */
export const SLICES_PER_SIDE = 6;

/**
 * One pair of the users phase: a fresh bot for 100 users and one for 20,000, both running, each
 * warmed up, then measured in slices taking turns (A B B A A B …, the first alternating pair by
 * pair): a change in the machine's speed over the pair weighs on both sides alike. Only one bot
 * has load at a time; the other waits on its long poll.
 */
export const usersPair = async (options: FloorOptions, portalUrl: string, pairNumber: number): Promise<{ few: UsersRun; many: UsersRun }> => {
  const sides: Array<Running & { role: 'few' | 'many'; distinct: number; firstUserId: number; turns: number[]; stretches: Stretch[] }> = [];
  try {
    // Which goes first alternates pair by pair, in the warm-up as in the slices: the first warmed
    // up waits through the other's warm-up, and its portal cache is the older.
    const roles = [['few', options.fewUsers], ['many', options.manyUsers]] as const;
    const turnsPerSlot = Math.ceil(options.manyUsers / options.fewUsers);
    for (const [role, distinct] of pairNumber % 2 === 1 ? roles : roles.toReversed()) {
      const { api, child } = await startBot('bot', options, portalUrl, join(options.temp, `users-${distinct}-${pairNumber}.log`));
      const firstUserId = takeUserIds(Math.max(options.fewUsers, distinct));
      sides.push({ role, distinct, api, child, firstUserId, turns: Array.from({ length: options.fewUsers }, () => 0), stretches: [] });
      // Warmed up with as many lookups as the many-users side has users, from this side's users,
      // each slot taking as many turns as a slot has users there: every one of the 20,000 acts
      // once within the minute before the measurement (the flood limiter holds them all), and
      // both sides start with the same portal cache.
      await drive(api, child, { users: options.fewUsers, ms: 60_000, distinct, lookupsOnly: true, turnsPerSlot, firstUserId });
    }
    const [a, b] = [sides[0]!, sides[1]!];
    const sliceMs = (options.seconds * 1000) / SLICES_PER_SIDE;
    for (let slice = 0; slice < 2 * SLICES_PER_SIDE; slice++) {
      const side = ((slice + 1) >> 1) % 2 === 0 ? a : b;
      // The rotation goes on from slice to slice: every one of the 20,000 keeps its turn.
      side.stretches.push(await drive(side.api, side.child, { users: options.fewUsers, ms: sliceMs, distinct: side.distinct, lookupsOnly: true, firstUserId: side.firstUserId, turns: side.turns }));
    }
    const measured = (role: 'few' | 'many'): UsersRun => {
      const side = sides.find((candidate) => candidate.role === role)!;
      const saturated = summarize(side.child, side.stretches);
      options.log(`  run ${pairNumber}, bot, ${side.distinct} distinct users: ${line(saturated)}`);
      return { users: options.fewUsers, distinct: side.distinct, saturated };
    };
    return { few: measured('few'), many: measured('many') };
  } finally {
    // Each side stopped and closed whatever befell the other.
    await Promise.allSettled(sides.map(stopBot));
  }
};
