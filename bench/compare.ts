import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { measure, startBot, stopBot, type FloorOptions } from './floor-measure.ts';
import { startDelayedPortal } from './portal.ts';

// npm run bench -- --compare <git ref> [--runs 6]: the bot at another commit against the bot of
// the working tree, in the floor scenario's saturated lookup mix, fresh bots taking turns (the
// order swapped each round, so a slower minute of the machine lands on both). The ref is built in
// a temporary git worktree (this checkout's node_modules linked in) as npm start builds it. What a
// change is worth when a floor run's ±10 % between runs would hide it; writes nothing.

export type CompareResult = { ref: string; rounds: Array<{ before: number; after: number }> };

/** The ref checked out and built beside this checkout; removed by the returned function. */
const buildRef = (root: string, ref: string, temp: string): { dir: string; remove: () => void } => {
  const dir = join(temp, 'compare-ref');
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  const remove = () => {
    execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', dir], { stdio: 'ignore' });
  };
  try {
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'ignore' });
    return { dir, remove };
  } catch (error) {
    remove();
    throw error;
  }
};

export const runCompare = async (options: Omit<FloorOptions, 'runs'> & { ref: string; rounds: number }): Promise<CompareResult> => {
  const built = buildRef(options.root, options.ref, options.temp);
  const portal = await startDelayedPortal(0);
  const rounds: CompareResult['rounds'] = [];
  const cpuOf = async (root: string, label: string, round: number): Promise<number> => {
    const bot = await startBot('bot', { ...options, runs: 1, root }, portal.url, join(options.temp, `compare-${label}-${round}.log`));
    try {
      await measure(bot.api, bot.child, { users: options.users, ms: options.warmUpMs });
      return (await measure(bot.api, bot.child, { users: options.users, ms: options.seconds * 1000 })).cpuMsPerUpdate;
    } finally {
      await stopBot(bot);
    }
  };
  try {
    for (let round = 1; round <= options.rounds; round++) {
      const first = round % 2 === 1 ? 'before' : 'after';
      const figures = { before: NaN, after: NaN };
      for (const which of first === 'before' ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        figures[which] = await cpuOf(which === 'before' ? built.dir : options.root, which, round);
      }
      rounds.push(figures);
      options.log(`  round ${round}: ${options.ref} ${figures.before.toFixed(3)}, working tree ${figures.after.toFixed(3)} CPU ms/update (${(figures.after / figures.before).toFixed(2)}×)`);
    }
    return { ref: options.ref, rounds };
  } finally {
    await portal.close();
    built.remove();
  }
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const renderCompare = ({ ref, rounds }: CompareResult): string => {
  const ratios = rounds.map(({ before, after }) => after / before);
  return (
    `Saturated lookup mix, CPU ms per update (median of ${rounds.length} rounds): ${ref} ${median(rounds.map((r) => r.before)).toFixed(3)}, ` +
    `the working tree ${median(rounds.map((r) => r.after)).toFixed(3)}; the working tree's over ${ref}'s within a round: ` +
    `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
  );
};
