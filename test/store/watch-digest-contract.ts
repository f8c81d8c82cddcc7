import { describe, expect, it } from 'vitest';
import type { DigestInput, NewDigest, WatchStore } from '../../src/store/watch-store.ts';
import { added, asChange, CONTRACT, DUE, GROUP, LEASE, MINUTE, newWatch, PIPE, PRIVATE, T0, useStore, type OpenWatchStore } from './watch-contract-support.ts';

// The digest and snooze part of the WatchStore contract (issue 33): a watch's options; what a
// poll queues for a status-only, a snoozed and a digest-only watch and for a chat with a digest;
// snoozes woken with their held changes folded into one notification; digests claimed with a
// lease and prepared once, their messages queued with the notifications.

const ALL = '{"all":1}';
const STATUS = '{"status":1}';
const HOUR = 60 * MINUTE;

/** A poll of the contract's target at `now` that found `changes` (all) and `statusChanges`. */
const pollFound = async (store: WatchStore, now: number, changes: { changes?: string; statusChanges?: string }) => {
  const [claimed] = await store.claimDue('poller', now, LEASE, 10);
  if (!claimed) throw new Error('nothing was due');
  return store.recordPoll(claimed.key, 'poller', { snapshot: `{"at":${now}}`, nextPollAt: now + MINUTE, now, ...changes });
};

const digestOf = (chatId: number, more: Partial<NewDigest> = {}): NewDigest => ({
  chatId,
  minute: 9 * 60,
  quiet: false,
  locale: 'ru',
  createdBy: 7,
  now: T0,
  nextAt: T0 + HOUR,
  ...more,
});

/** What a notification or a digest message says, in the order they would be claimed at `now`. */
const pendingAt = async (store: WatchStore, now: number) =>
  (await store.claimNotifications('peek', now, 1, 100)).map((notification) =>
    notification.kind === 'change' ? `${notification.chatId} ${notification.watchId}: ${notification.changes}` : `${notification.chatId} digest: ${notification.message}`,
  );

export const describeWatchDigestContract = (name: string, open: OpenWatchStore): void => {
  describe(`${name}: options, snoozes and digests`, () => {
    const store = useStore(open);

    it("sets a watch's options and snooze, only for its own chat", async () => {
      const watch = await added(store(), newWatch(GROUP, CONTRACT));
      expect(await store().setOptions(GROUP, watch.id, { statusOnly: true })).toEqual({ ...watch, statusOnly: true });
      expect(await store().setOptions(GROUP, watch.id, { digestOnly: true })).toEqual({ ...watch, statusOnly: true, digestOnly: true });
      expect(await store().setOptions(GROUP, watch.id, { statusOnly: false, digestOnly: false })).toEqual(watch);
      expect(await store().snooze(GROUP, watch.id, T0 + HOUR)).toEqual({ ...watch, snoozedUntil: T0 + HOUR });
      // The last snooze asked for holds, shorter too.
      expect(await store().snooze(GROUP, watch.id, T0 + 10 * MINUTE)).toEqual({ ...watch, snoozedUntil: T0 + 10 * MINUTE });
      expect(await store().resume(GROUP, watch.id, T0 + MINUTE)).toEqual({ ...watch, snoozedUntil: T0 + MINUTE });
      expect(await store().setOptions(PRIVATE, watch.id, { statusOnly: true })).toBeUndefined();
      expect(await store().snooze(PRIVATE, watch.id, T0 + HOUR)).toBeUndefined();
      expect(await store().resume(PRIVATE, watch.id, T0)).toBeUndefined();
      expect(await store().setOptions(GROUP, watch.id + 1000, { statusOnly: true })).toBeUndefined();
      expect((await store().list(GROUP))[0]).toEqual({ ...watch, snoozedUntil: T0 + MINUTE });
      // Resuming a watch that is not snoozed changes nothing.
      const other = await added(store(), newWatch(GROUP, PIPE));
      expect(await store().resume(GROUP, other.id, T0)).toEqual(other);
    });

    it('tells a status-only watch its own changes, and nothing when a poll found none of them', async () => {
      const all = await added(store(), newWatch(GROUP, CONTRACT));
      const status = await added(store(), newWatch(PRIVATE, CONTRACT));
      await store().setOptions(PRIVATE, status.id, { statusOnly: true });
      await pollFound(store(), DUE, { changes: ALL, statusChanges: STATUS });
      await pollFound(store(), DUE + MINUTE, { changes: ALL });
      expect(await pendingAt(store(), DUE + MINUTE)).toEqual([`${GROUP} ${all.id}: ${ALL}`, `${PRIVATE} ${status.id}: ${STATUS}`]);
      expect((await store().list(PRIVATE))[0]?.lastChangeAt).toBe(DUE);
      expect((await store().list(GROUP))[0]?.lastChangeAt).toBe(DUE + MINUTE);
    });

    it('holds a snoozed watch’s changes, and folds them into one notification when it wakes', async () => {
      const watch = await added(store(), newWatch(GROUP, CONTRACT));
      const awake = await added(store(), newWatch(PRIVATE, CONTRACT));
      await store().snooze(GROUP, watch.id, DUE + HOUR);
      await pollFound(store(), DUE, { changes: '{"n":1}' });
      await pollFound(store(), DUE + MINUTE, { changes: '{"n":2}' });
      expect(await pendingAt(store(), DUE + MINUTE)).toEqual([`${PRIVATE} ${awake.id}: {"n":1}`]);
      const folds: string[][] = [];
      const fold = (held: string[]) => {
        folds.push(held);
        return `folded ${held.length}`;
      };
      // Not yet: nothing wakes before its time.
      expect(await store().wakeSnoozed(DUE + HOUR - 1, 10, fold)).toBe(0);
      expect(await store().wakeSnoozed(DUE + HOUR, 10, fold)).toBe(1);
      expect(folds).toEqual([['{"n":1}', '{"n":2}']]);
      expect((await store().list(GROUP))[0]?.snoozedUntil).toBeUndefined();
      const pending = await store().claimNotifications('s', DUE + HOUR, LEASE, 10);
      // The awake watch's second notification waits for its first; the woken one's fold is due now.
      expect(pending.map((notification) => asChange(notification).changes)).toEqual(['{"n":1}', 'folded 2']);
      for (const notification of pending) await store().delivered(notification.id);
      // Once woken, changes are told at once again; the held ones are gone.
      expect(await store().wakeSnoozed(DUE + 2 * HOUR, 10, fold)).toBe(0);
      await pollFound(store(), DUE + HOUR, { changes: '{"n":3}' });
      expect((await pendingAt(store(), DUE + HOUR + LEASE)).filter((line) => line.startsWith(String(GROUP)))).toEqual([`${GROUP} ${watch.id}: {"n":3}`]);
    });

    it('wakes a resumed watch at once, and one with nothing held without a notification', async () => {
      const watch = await added(store(), newWatch(GROUP, CONTRACT));
      // Its target is not polled in this test.
      const quiet = await added(store(), newWatch(GROUP, PIPE, { firstPollAt: DUE + 1000 * HOUR }));
      await store().snooze(GROUP, watch.id, DUE + 7 * 24 * HOUR);
      await store().snooze(GROUP, quiet.id, DUE + 7 * 24 * HOUR);
      await pollFound(store(), DUE, { changes: '{"n":1}' });
      await store().resume(GROUP, watch.id, DUE + MINUTE);
      await store().resume(GROUP, quiet.id, DUE + MINUTE);
      expect(await store().wakeSnoozed(DUE + MINUTE, 10, (held) => held.join('+'))).toBe(2);
      expect(await pendingAt(store(), DUE + MINUTE)).toEqual([`${GROUP} ${watch.id}: {"n":1}`]);
      // A fold that finds nothing left to tell queues nothing.
      await store().snooze(GROUP, watch.id, DUE + 2 * MINUTE);
      await pollFound(store(), DUE + 60 * MINUTE, { changes: '{"n":2}' });
      expect(await store().wakeSnoozed(DUE + 61 * MINUTE, 10, () => undefined)).toBe(1);
      expect((await store().counts()).pending).toBe(1);
    });

    it('keeps a digest per chat: set, changed, moved in time, removed', async () => {
      expect(await store().digest(GROUP)).toBeUndefined();
      const set = await store().setDigest(digestOf(GROUP, { threadId: 5, quiet: true }));
      expect(set).toEqual({ chatId: GROUP, threadId: 5, minute: 540, quiet: true, locale: 'ru', createdBy: 7, createdAt: T0, nextAt: T0 + HOUR });
      expect(await store().digest(GROUP)).toEqual(set);
      const changed = await store().setDigest(digestOf(GROUP, { minute: 600, locale: 'en', createdBy: 8, now: T0 + MINUTE, nextAt: T0 + 2 * HOUR }));
      expect(changed).toEqual({ chatId: GROUP, minute: 600, quiet: false, locale: 'en', createdBy: 8, createdAt: T0, nextAt: T0 + 2 * HOUR });
      await store().rescheduleDigest(GROUP, T0 + 3 * HOUR);
      expect((await store().digest(GROUP))?.nextAt).toBe(T0 + 3 * HOUR);
      expect(await store().digest(PRIVATE)).toBeUndefined();
      expect(await store().removeDigest(GROUP)).toBe(0);
      expect(await store().removeDigest(GROUP)).toBeUndefined();
      expect(await store().digest(GROUP)).toBeUndefined();
    });

    it('holds changes for a chat with a digest, and only there for a digest-only watch', async () => {
      const instant = await added(store(), newWatch(GROUP, CONTRACT));
      const digestOnly = await added(store(), newWatch(PRIVATE, CONTRACT));
      await store().setDigest(digestOf(GROUP));
      await store().setDigest(digestOf(PRIVATE));
      await store().setOptions(PRIVATE, digestOnly.id, { digestOnly: true });
      await pollFound(store(), DUE, { changes: ALL });
      expect(await pendingAt(store(), DUE)).toEqual([`${GROUP} ${instant.id}: ${ALL}`]);
      const seen: DigestInput[] = [];
      const [claimed] = await store().claimDigests('d', T0 + HOUR, LEASE, 1);
      expect(claimed?.chatId).toBe(GROUP);
      expect(await store().prepareDigest(GROUP, 'd', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, (input) => (seen.push(input), []))).toBe(0);
      await store().claimDigests('d', T0 + HOUR, LEASE, 1);
      expect(await store().prepareDigest(PRIVATE, 'd', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, (input) => (seen.push(input), []))).toBe(0);
      expect(seen.map((input) => input.held)).toEqual([[{ watchId: instant.id, changes: ALL }], [{ watchId: digestOnly.id, changes: ALL }]]);
      expect(seen[0]?.watches).toEqual([{ watch: { ...instant, lastChangeAt: DUE }, snapshot: `{"at":${DUE}}` }]);
      // Stopping the digest: the digest-only watch is told at once again, what it held goes.
      expect(await store().removeDigest(PRIVATE)).toBe(1);
      expect((await store().list(PRIVATE))[0]?.digestOnly).toBeUndefined();
      await pollFound(store(), DUE + MINUTE, { changes: '{"next":1}' });
      expect(await pendingAt(store(), DUE + LEASE)).toEqual([`${GROUP} ${instant.id}: ${ALL}`, `${PRIVATE} ${digestOnly.id}: {"next":1}`]);
    });

    it('prepares a digest once: claimed by one owner, its messages queued in order, its held changes told once', async () => {
      const watch = await added(store(), newWatch(GROUP, CONTRACT, { threadId: 3 }));
      await store().setDigest(digestOf(GROUP, { threadId: 3 }));
      await pollFound(store(), DUE, { changes: ALL });
      await store().delivered((await store().claimNotifications('s', DUE, LEASE, 10))[0]!.id);
      expect(await store().claimDigests('a', T0 + HOUR - 1, LEASE, 10)).toEqual([]);
      expect((await store().claimDigests('a', T0 + HOUR, LEASE, 10)).map((digest) => digest.chatId)).toEqual([GROUP]);
      expect(await store().claimDigests('b', T0 + HOUR, LEASE, 10)).toEqual([]);
      // b may not prepare what a holds.
      expect(await store().prepareDigest(GROUP, 'b', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, () => ['never'])).toBeUndefined();
      const built: DigestInput[] = [];
      const messages = await store().prepareDigest(GROUP, 'a', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, (input) => (built.push(input), ['part 1', 'part 2']));
      expect(messages).toBe(2);
      expect(built[0]?.held).toEqual([{ watchId: watch.id, changes: ALL }]);
      const claimed = await store().claimNotifications('s', T0 + HOUR, LEASE, 10);
      // One part at a time: the second waits while the first is pending.
      expect(claimed).toEqual([{ id: expect.any(Number), kind: 'digest', chatId: GROUP, threadId: 3, locale: 'ru', attempts: 0, message: 'part 1' }]);
      await store().delivered(claimed[0]!.id);
      expect(await pendingAt(store(), T0 + HOUR)).toEqual([`${GROUP} digest: part 2`]);
      expect(await store().digest(GROUP)).toMatchObject({ lastSentAt: T0 + HOUR, nextAt: T0 + 25 * HOUR });
      // Not due again until the next day; what it told is not held any more.
      expect(await store().claimDigests('b', T0 + 24 * HOUR, LEASE, 10)).toEqual([]);
      const [next] = await store().claimDigests('b', T0 + 25 * HOUR, LEASE, 10);
      expect(next?.chatId).toBe(GROUP);
      expect(await store().prepareDigest(GROUP, 'b', { now: T0 + 25 * HOUR, nextAt: T0 + 49 * HOUR }, (input) => (built.push(input), []))).toBe(0);
      expect(built[1]?.held).toEqual([]);
    });

    it('lets another owner take a digest over when its lease expires, and skips or releases one', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await store().setDigest(digestOf(GROUP));
      await pollFound(store(), DUE, { changes: ALL });
      await store().claimDigests('a', T0 + HOUR, LEASE, 10);
      expect((await store().claimDigests('b', T0 + HOUR + LEASE, LEASE, 10)).map((digest) => digest.chatId)).toEqual([GROUP]);
      expect(await store().skipDigest(GROUP, 'a', T0 + 25 * HOUR)).toBe(false);
      expect(await store().skipDigest(GROUP, 'b', T0 + 25 * HOUR)).toBe(true);
      // Skipped: due the next day, its changes still held, the day it missed remembered.
      const [again] = await store().claimDigests('c', T0 + 25 * HOUR, LEASE, 10);
      expect(again).toMatchObject({ nextAt: T0 + 25 * HOUR, missedAt: T0 + HOUR });
      await store().releaseDigest(GROUP, 'c', T0 + 26 * HOUR);
      expect(await store().claimDigests('d', T0 + 26 * HOUR - 1, LEASE, 10)).toEqual([]);
      const [released] = await store().claimDigests('d', T0 + 26 * HOUR, LEASE, 10);
      expect(released?.missedAt).toBe(T0 + HOUR);
      const built: DigestInput[] = [];
      await store().prepareDigest(GROUP, 'd', { now: T0 + 26 * HOUR, nextAt: T0 + 49 * HOUR }, (input) => (built.push(input), ['one']));
      expect(built[0]?.held.map((held) => held.changes)).toEqual([ALL]);
      expect((await store().digest(GROUP))?.missedAt).toBeUndefined();
    });

    it('writes nothing when building a digest fails', async () => {
      await added(store(), newWatch(GROUP, CONTRACT));
      await store().setDigest(digestOf(GROUP));
      await pollFound(store(), DUE, { changes: ALL });
      await store().claimDigests('a', T0 + HOUR, LEASE, 10);
      const failed = await Promise.resolve()
        .then(() => store().prepareDigest(GROUP, 'a', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, () => { throw new Error('the view failed'); }))
        .then(() => undefined, (error: unknown) => error);
      expect(failed).toBeInstanceOf(Error);
      expect(await store().digest(GROUP)).toMatchObject({ nextAt: T0 + HOUR });
      expect(await store().counts()).toMatchObject({ pending: 1 });
      const built: DigestInput[] = [];
      await store().prepareDigest(GROUP, 'a', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, (input) => (built.push(input), []));
      expect(built[0]?.held).toHaveLength(1);
    });

    it('leaves a snoozed watch’s digest changes for a digest after it wakes', async () => {
      const watch = await added(store(), newWatch(GROUP, CONTRACT));
      await store().setDigest(digestOf(GROUP));
      await store().snooze(GROUP, watch.id, T0 + 2 * HOUR);
      await pollFound(store(), DUE, { changes: ALL });
      await store().claimDigests('a', T0 + HOUR, LEASE, 10);
      const built: DigestInput[] = [];
      await store().prepareDigest(GROUP, 'a', { now: T0 + HOUR, nextAt: T0 + 3 * HOUR }, (input) => (built.push(input), []));
      expect(built[0]?.held).toEqual([]);
      expect(built[0]?.watches[0]?.watch.snoozedUntil).toBe(T0 + 2 * HOUR);
      await store().wakeSnoozed(T0 + 2 * HOUR, 10, (held) => held.join());
      await store().claimDigests('a', T0 + 3 * HOUR, LEASE, 10);
      await store().prepareDigest(GROUP, 'a', { now: T0 + 3 * HOUR, nextAt: T0 + 27 * HOUR }, (input) => (built.push(input), []));
      expect(built[1]?.held).toEqual([{ watchId: watch.id, changes: ALL }]);
    });

    it('pauses a chat’s digest with its watches, dropping its messages and held changes, and resumes both', async () => {
      const watch = await added(store(), newWatch(GROUP, CONTRACT));
      await store().setDigest(digestOf(GROUP));
      await store().snooze(GROUP, watch.id, T0 + 2 * HOUR);
      await pollFound(store(), DUE, { changes: ALL });
      await store().claimDigests('a', T0 + HOUR, LEASE, 10);
      await store().prepareDigest(GROUP, 'a', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, () => ['part']);
      await store().pauseChat(GROUP, T0 + HOUR);
      expect(await store().counts()).toMatchObject({ pending: 0 });
      expect(await store().claimDigests('a', T0 + 30 * HOUR, LEASE, 10)).toEqual([]);
      expect(await store().wakeSnoozed(T0 + 2 * HOUR, 10, () => 'told')).toBe(1);
      expect(await store().counts()).toMatchObject({ pending: 0 });
      expect(await store().resumeChat(GROUP)).toBe(true);
      expect((await store().claimDigests('a', T0 + 30 * HOUR, LEASE, 10)).map((digest) => digest.chatId)).toEqual([GROUP]);
      // Only a digest paused is resumed too.
      await store().removeChat(GROUP);
      await store().setDigest(digestOf(PRIVATE));
      await store().pauseChat(PRIVATE, T0);
      expect(await store().resumeChat(PRIVATE)).toBe(true);
      expect(await store().resumeChat(PRIVATE)).toBe(false);
    });

    it('moves a digest with its chat, unless the new chat has its own; removes it with the chat', async () => {
      const OLD = -4001;
      const NEW = -1004001;
      const watch = await added(store(), newWatch(OLD, CONTRACT, { threadId: 9 }));
      await store().setDigest(digestOf(OLD, { threadId: 9 }));
      await pollFound(store(), DUE, { changes: ALL });
      await store().moveChat(OLD, NEW);
      expect(await store().digest(OLD)).toBeUndefined();
      expect(await store().digest(NEW)).toMatchObject({ chatId: NEW, minute: 540 });
      expect((await store().digest(NEW))?.threadId).toBeUndefined();
      await store().claimDigests('a', T0 + HOUR, LEASE, 10);
      const built: DigestInput[] = [];
      await store().prepareDigest(NEW, 'a', { now: T0 + HOUR, nextAt: T0 + 25 * HOUR }, (input) => (built.push(input), ['part']));
      expect(built[0]?.held).toEqual([{ watchId: watch.id, changes: ALL }]);
      // The new chat's own digest stays.
      await store().setDigest(digestOf(OLD, { minute: 60 }));
      await store().moveChat(OLD, NEW);
      expect(await store().digest(NEW)).toMatchObject({ minute: 540 });
      expect(await store().digest(OLD)).toBeUndefined();
      await store().removeChat(NEW);
      expect(await store().digest(NEW)).toBeUndefined();
      expect(await store().counts()).toEqual({ watches: 0, targets: 0, pending: 0 });
    });
  });
};
