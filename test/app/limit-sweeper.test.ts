import { afterEach, describe, expect, it } from 'vitest';
import { startLimitSweeper } from '../../src/app/limit-sweeper.ts';
import { StoreUnavailableError } from '../../src/store/errors.ts';
import { captureLogs } from '../support/logs.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('startLimitSweeper', () => {
  it('sweeps on its timer, with the time of each sweep, and stops when told', async () => {
    const swept: number[] = [];
    let time = 1_000;
    const sweeper = startLimitSweeper({
      limits: { sweep: (now) => void swept.push(now) },
      logger: captureLogs().logger,
      everyMs: 10,
      now: () => (time += 1_000),
    });
    stops.push(sweeper.stop);
    await sleep(60);
    expect(swept.length).toBeGreaterThanOrEqual(2);
    expect(swept[1]! - swept[0]!).toBe(1_000);
    sweeper.stop();
    const count = swept.length;
    await sleep(40);
    expect(swept).toHaveLength(count);
  });

  it('logs a failed sweep and goes on sweeping', async () => {
    const logs = captureLogs();
    let calls = 0;
    const sweeper = startLimitSweeper({
      limits: {
        sweep: async () => {
          calls += 1;
          throw new StoreUnavailableError('postgres://db/bot', 'connect ECONNREFUSED');
        },
      },
      logger: logs.logger,
      everyMs: 10,
    });
    stops.push(sweeper.stop);
    await expect(sweeper.sweep()).resolves.toBeUndefined();
    await sleep(40);
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(logs.lines.filter((line) => line.level === 40 && String(line.msg).includes('sweeping ended rate limits failed'))).toHaveLength(calls);
  });

  it('never runs two sweeps at once: a slow store is not piled on', async () => {
    let running = 0;
    let most = 0;
    const sweeper = startLimitSweeper({
      limits: {
        sweep: async () => {
          running += 1;
          most = Math.max(most, running);
          await sleep(50);
          running -= 1;
        },
      },
      logger: captureLogs().logger,
      everyMs: 5,
    });
    stops.push(sweeper.stop);
    await sleep(120);
    expect(most).toBe(1);
  });
});
