import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeat } from '../../src/app/repeat.ts';
import { captureLogs } from '../support/logs.ts';

/** A step whose rounds end when the test says so. */
const controlledStep = () => {
  const rounds: Array<PromiseWithResolvers<void>> = [];
  const step = () => {
    const round = Promise.withResolvers<void>();
    rounds.push(round);
    return round.promise;
  };
  return { step, rounds };
};

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('repeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a round every interval, never two at once', async () => {
    const { step, rounds } = controlledStep();
    const rounding = repeat(step, 1_000, pino({ level: 'silent' }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds).toHaveLength(1);
    // The round is still under way at the next tick: no second one beside it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds).toHaveLength(1);
    rounds[0]!.resolve();
    await settle();
    // The tick it was asked for meanwhile runs as soon as it ended, not a second later.
    expect(rounds).toHaveLength(2);
    rounds[1]!.resolve();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds).toHaveLength(3);
    rounds[2]!.resolve();
    await rounding.stop();
  });

  it('is settled once the round under way, and the one asked for meanwhile, have ended; it goes on repeating', async () => {
    const { step, rounds } = controlledStep();
    const rounding = repeat(step, 60_000, pino({ level: 'silent' }));
    rounding.run();
    rounding.run();
    let settled = false;
    const settling = rounding.settled().then(() => (settled = true));
    rounds[0]!.resolve();
    await settle();
    expect(rounds).toHaveLength(2);
    expect(settled).toBe(false);
    rounds[1]!.resolve();
    await settling;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rounds).toHaveLength(3);
    rounds[2]!.resolve();
    await rounding.stop();
  });

  it('asked while a round is under way, runs again at once when it ends, once for any number of asks', async () => {
    const { step, rounds } = controlledStep();
    const rounding = repeat(step, 60_000, pino({ level: 'silent' }));
    rounding.run();
    expect(rounds).toHaveLength(1);
    rounding.run();
    rounding.run();
    rounding.run();
    expect(rounds).toHaveLength(1);
    rounds[0]!.resolve();
    await settle();
    expect(rounds).toHaveLength(2);
    rounds[1]!.resolve();
    await settle();
    // Nobody asked during the second: no third.
    expect(rounds).toHaveLength(2);
    await rounding.stop();
  });

  it('logs a failed round and goes on', async () => {
    const { logger, lines } = captureLogs('info');
    let calls = 0;
    const rounding = repeat(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('the store is gone');
      },
      1_000,
      logger,
    );
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toBe(2);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'watches: a round failed', err: expect.objectContaining({ message: 'the store is gone' }) }),
      expect.objectContaining({ msg: 'watches: rounds succeed again', failedRounds: 1 }),
    ]);
    await rounding.stop();
  });

  it('while rounds keep failing (a full disk), logs it once, then once a minute, and once when they succeed again', async () => {
    const { logger, lines } = captureLogs('info');
    let diskFull = true;
    const rounding = repeat(
      async () => {
        if (diskFull) throw new Error('database or disk is full');
      },
      1_000,
      logger,
    );
    // 150 rounds fail, one a second.
    await vi.advanceTimersByTimeAsync(150_000);
    const failures = lines.filter((line) => line.msg === 'watches: a round failed');
    expect(failures.map((line) => [line.level, line.failedRounds])).toEqual([
      [50, undefined],
      [50, 61],
      [50, 121],
    ]);
    expect(failures.every((line) => (line.err as { message?: string }).message === 'database or disk is full')).toBe(true);
    diskFull = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lines.slice(failures.length)).toEqual([expect.objectContaining({ level: 30, msg: 'watches: rounds succeed again', failedRounds: 150 })]);
    // A failure after that is news again: logged at once.
    diskFull = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(lines.at(-1)).toMatchObject({ level: 50, msg: 'watches: a round failed' });
    expect(lines.at(-1)).not.toHaveProperty('failedRounds');
    await rounding.stop();
  });

  it('stops: waits for the round under way, then starts none, whatever was asked', async () => {
    const { step, rounds } = controlledStep();
    const rounding = repeat(step, 1_000, pino({ level: 'silent' }));
    rounding.run();
    rounding.run();
    let stopped = false;
    const stopping = rounding.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    rounds[0]!.resolve();
    await stopping;
    expect(stopped).toBe(true);
    rounding.run();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(rounds).toHaveLength(1);
  });
});
