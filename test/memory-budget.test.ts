import { describe, expect, it } from 'vitest';
import { createExportMemory, createMemoryBudget, createWatchMemory } from '../src/memory-budget.ts';

describe('a memory budget', () => {
  it('lets a lease take up to its own cap, and no more ("over", nothing counted)', () => {
    const budget = createMemoryBudget(100, 40);
    const lease = budget.lease();
    expect(lease.take(30)).toBe('ok');
    expect(lease.take(11)).toBe('over');
    expect(lease.take(10)).toBe('ok');
    expect(budget.used()).toBe(40);
  });

  it('is shared: a lease finds it "busy" while the others hold the rest, and free gives it back', () => {
    const budget = createMemoryBudget(100, 60);
    const [first, second] = [budget.lease(), budget.lease()];
    expect(first.take(60)).toBe('ok');
    expect(second.take(50)).toBe('busy');
    expect(second.take(40)).toBe('ok');
    first.free();
    first.free();
    expect(budget.used()).toBe(40);
    expect(second.take(20)).toBe('ok');
    second.free();
    expect(budget.used()).toBe(0);
  });

  it('gives each of the exports running at once an equal share, and a watch reading half of the watches’', () => {
    const exports = createExportMemory(90, 4);
    const leases = Array.from({ length: 4 }, () => exports.lease());
    for (const lease of leases) expect(lease.take(22.5)).toBe('ok');
    expect(leases[0]!.take(1)).toBe('over');
    const watches = createWatchMemory(30);
    const [poll, other] = [watches.lease(), watches.lease()];
    expect(poll.take(16)).toBe('over');
    expect(poll.take(15)).toBe('ok');
    expect(other.take(15)).toBe('ok');
    expect(watches.lease().take(1)).toBe('busy');
  });
});
