import { describe, expect, it } from 'vitest';
import { createCooldown } from '../../../src/bot/middleware/cooldown.ts';

describe('createCooldown', () => {
  const make = (maxKeys = 100) => {
    const clock = { ms: 0 };
    return { clock, cooldown: createCooldown({ quietMs: 1_000, maxKeys, now: () => clock.ms }) };
  };

  it('lets a key through once per quiet period, each key on its own', () => {
    const { clock, cooldown } = make();
    expect(cooldown.take('a')).toBe(true);
    expect(cooldown.take('a')).toBe(false);
    expect(cooldown.take('b')).toBe(true);
    clock.ms = 999;
    expect(cooldown.take('a')).toBe(false);
    clock.ms = 1_000;
    expect(cooldown.take('a')).toBe(true);
    expect(cooldown.take('a')).toBe(false);
  });

  it('forgets expired keys a few at a time, without being asked', () => {
    const { clock, cooldown } = make();
    for (let i = 0; i < 10; i += 1) cooldown.take(`k${i}`);
    clock.ms = 5_000;
    cooldown.take('new');
    expect(cooldown.size).toBe(9);
    for (let i = 0; i < 5; i += 1) cooldown.take('new');
    expect(cooldown.size).toBe(1);
  });

  it('keeps at most maxKeys, forgetting the oldest', () => {
    const { cooldown } = make(3);
    for (const key of ['a', 'b', 'c', 'd']) cooldown.take(key);
    expect(cooldown.size).toBe(3);
    expect(cooldown.take('a')).toBe(true);
    expect(cooldown.take('d')).toBe(false);
  });
});
