import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheAccess, type AllowedIds } from '../../src/store/access-cache.ts';

// The allowed ids each process holds in memory (src/store/access-cache.ts).

afterEach(() => vi.useRealTimers());

/** A store whose reads the test answers one by one. */
const slowStore = () => {
  const reads: Array<(ids: AllowedIds) => void> = [];
  return { read: () => new Promise<AllowedIds>((resolve) => reads.push(resolve)), reads };
};

describe('the allowed ids in memory', () => {
  it('holds what was read, and a write of this process at once', async () => {
    const cache = cacheAccess(() => ({ users: [1], chats: [-100] }), { initial: { users: [1], chats: [] } });
    expect([cache.hasUser(1), cache.hasChat(-100)]).toEqual([true, false]);
    await cache.refresh();
    expect(cache.hasChat(-100)).toBe(true);
    cache.apply('user', 2, true);
    cache.apply('chat', -100, false);
    expect([cache.hasUser(2), cache.hasChat(-100)]).toEqual([true, false]);
  });

  it('never installs a read older than a change made meanwhile: it reads again', async () => {
    const store = slowStore();
    const cache = cacheAccess(store.read);
    const refreshed = cache.refresh();
    // The removal of user 1 committed after the read began, which still saw the user.
    cache.apply('user', 1, false);
    store.reads[0]!({ users: [1], chats: [] });
    await vi.waitFor(() => expect(store.reads).toHaveLength(2));
    expect(cache.hasUser(1)).toBe(false);
    store.reads[1]!({ users: [], chats: [] });
    await refreshed;
    expect(cache.hasUser(1)).toBe(false);
  });

  it('keeps the last list when a read fails, and says so', async () => {
    const failures: unknown[] = [];
    let fail = false;
    const cache = cacheAccess(
      () => {
        if (fail) throw new Error('down');
        return { users: [1], chats: [] };
      },
      { onError: (error) => failures.push(error) },
    );
    await cache.refresh();
    fail = true;
    await cache.refresh();
    expect(cache.hasUser(1)).toBe(true);
    expect(failures).toEqual([new Error('down')]);
  });

  it('while suspended, reads the list every second; resumed, once more and no longer', async () => {
    vi.useFakeTimers();
    let reads = 0;
    const cache = cacheAccess(() => {
      reads += 1;
      return { users: [reads], chats: [] };
    });
    cache.suspend();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(reads).toBe(4);
    expect(cache.hasUser(4)).toBe(true);
    cache.resume();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(reads).toBe(5);
    cache.close();
  });
});
