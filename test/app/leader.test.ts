import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POLLING_LEASE, startPollingLeadership, type PollingLeadership } from '../../src/app/leader.ts';
import { createMetricsRegistry } from '../../src/metrics/registry.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { CoordinationStore } from '../../src/store/store.ts';
import { startPolling } from '../../src/telegram/polling-runner.ts';
import { useTempDirs } from '../store/support.ts';
import { createTestBot, sleep, startFixture, until, type Fixture } from '../telegram/fixture.ts';

// Polling leadership between "replicas" in one test process: each its own bot and lease owner,
// all on one real sqlite store (its leases are rows, shared like PostgreSQL's), against the emulator.

const LEASE_MS = 300;
const tempDir = useTempDirs();
let f: Fixture;
let store: ReturnType<typeof openSqliteStore>;
const leaderships: PollingLeadership[] = [];
beforeEach(async () => {
  f = await startFixture();
  store = openSqliteStore({ dataDir: tempDir() });
});
afterEach(async () => {
  await Promise.all(leaderships.splice(0).map((leadership) => leadership.stop(100)));
  await f.close();
  store.close();
});

const replica = async (owner: string, { coordination = store.coordination as CoordinationStore } = {}) => {
  const metrics = createMetricsRegistry();
  let starts = 0;
  const runs: Array<Promise<unknown>> = [];
  const bot = createTestBot(f.api, (update) => update.reply(`${owner}: ${update.text}`).then(() => undefined));
  const leadership = await startPollingLeadership({
    coordination,
    owner,
    leaseMs: LEASE_MS,
    logger: f.logger.child({ owner }),
    gauge: metrics.gauge({ name: 'orderbot_polling_leader', help: 'Leading.' }),
    startRunner: (signal, onConflict) => {
      starts++;
      const run = startPolling({ bot, logger: f.logger, pollTimeoutSeconds: 1, backoff: { baseMs: 20, maxMs: 100 }, signal, onConflict });
      runs.push(run);
      return run;
    },
  });
  leaderships.push(leadership);
  /** Resolves once every start of a runner has ended, started or refused (an abandoned one throws). */
  const startsEnded = () => Promise.allSettled(runs);
  return { leadership, starts: () => starts, startsEnded, gauge: async () => /^orderbot_polling_leader (\d)$/m.exec(await metrics.render())?.[1] };
};

const logsOf = (owner: string, msg: string) => f.logs.filter((line) => line.owner === owner && line.msg === msg);

describe('polling leadership', () => {
  it('lets exactly one replica poll; the other stands by without calling Telegram, and says so once', async () => {
    const one = await replica('one');
    const two = await replica('two');
    expect([one.leadership.leading(), two.leadership.leading()]).toEqual([true, false]);
    await f.api.waitForPolling();
    await sleep(LEASE_MS * 2);
    expect([one.starts(), two.starts()]).toEqual([1, 0]);
    expect([await one.gauge(), await two.gauge()]).toEqual(['1', '0']);
    expect(logsOf('one', 'took over polling')).toHaveLength(1);
    expect(logsOf('two', 'standing by: another replica polls')).toHaveLength(1);
    // No getUpdates ever conflicted: one consumer only.
    expect(f.api.callsTo('getUpdates').filter((call) => !call.response.ok && !call.aborted)).toEqual([]);

    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'hi' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('one: hi');
  });

  it('hands over within one retry period when the leader stops, and the new leader answers', async () => {
    const one = await replica('one');
    const two = await replica('two');
    await f.api.waitForPolling();
    const stoppedAt = Date.now();
    await one.leadership.stop(100);
    expect(await one.gauge()).toBe('0');
    await until(() => two.leadership.leading(), 2_000);
    expect(Date.now() - stoppedAt).toBeLessThan(LEASE_MS);
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'after' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('two: after');
    expect(await two.gauge()).toBe('1');
  });

  it('polls on when its renewals fail, and hands over once another replica holds the lease (a 409 after its own ended)', async () => {
    let failing = false;
    // The real store, failing on demand for this replica only, as a network cut between it and the database would.
    const flaky: CoordinationStore = {
      ...store.coordination,
      lease: (...args) => {
        if (failing) throw new Error('connection terminated');
        return store.coordination.lease(...args);
      },
    };
    const one = await replica('one', { coordination: flaky });
    const two = await replica('two');
    await f.api.waitForPolling();
    failing = true;
    await until(() => logsOf('one', 'could not renew the polling lease: polling goes on until another replica is seen to hold it').length === 1, 1_000);
    expect(one.leadership.leading()).toBe(true);
    expect(await one.gauge()).toBe('1');
    // Two takes the lease once it ended, polls, and Telegram's 409 tells one to stop.
    await until(() => two.leadership.leading() && !one.leadership.leading(), 2_000);
    expect(logsOf('one', 'lost the polling lease')[0]).toMatchObject({ level: 40, err: { message: expect.stringContaining('409') } });
    expect(await one.gauge()).toBe('0');
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'still served' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('two: still served');
    await f.api.waitForIdle();
    expect(f.api.messagesIn(user.id)).toHaveLength(1);
    // The overlap cost a conflict or two, never a storm; two polls on alone.
    const conflicts = () => f.api.callsTo('getUpdates').filter((call) => call.response.ok === false && !call.aborted).length;
    expect(conflicts()).toBeLessThanOrEqual(2);
    const settled = conflicts();
    await sleep(LEASE_MS * 2);
    expect(conflicts()).toBe(settled);
  });

  it('polls on and answers while the store fails for every replica, and renews once it is back', async () => {
    let failing = false;
    const flaky: CoordinationStore = {
      ...store.coordination,
      lease: (...args) => {
        if (failing) throw new Error('connect ECONNREFUSED');
        return store.coordination.lease(...args);
      },
    };
    const one = await replica('one', { coordination: flaky });
    const two = await replica('two', { coordination: flaky });
    await f.api.waitForPolling();
    failing = true;
    // Well past the lease: nobody could take it, so the poller keeps polling and the standby stands by.
    await sleep(LEASE_MS * 3);
    expect([one.leadership.leading(), two.leadership.leading()]).toEqual([true, false]);
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'during the outage' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('one: during the outage');
    expect(logsOf('two', 'could not try for the polling lease: the store failed')).toHaveLength(1);

    failing = false;
    await until(() => logsOf('one', 'renewed the polling lease again').length === 1, 1_000);
    await sleep(LEASE_MS);
    expect([one.leadership.leading(), two.leadership.leading()]).toEqual([true, false]);
    expect([one.starts(), two.starts()]).toEqual([1, 0]);
    expect(f.api.callsTo('getUpdates').filter((call) => call.response.ok === false && !call.aborted)).toEqual([]);
  });

  it('polls on while the store does not answer a renewal within the period', async () => {
    let hanging = false;
    const slow: CoordinationStore = {
      ...store.coordination,
      lease: (...args) => (hanging ? new Promise<boolean>(() => {}) : store.coordination.lease(...args)),
    };
    const one = await replica('one', { coordination: slow });
    await f.api.waitForPolling();
    hanging = true;
    await sleep(LEASE_MS * 3);
    expect(one.leadership.leading()).toBe(true);
    expect(logsOf('one', 'could not renew the polling lease: polling goes on until another replica is seen to hold it')[0]).toMatchObject({
      err: { message: `the store did not answer within ${Math.floor(LEASE_MS / 6)} ms` },
    });
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'hanging store' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('one: hanging store');
  });

  it('stops at its next renewal when the store answers that another replica holds the lease', async () => {
    const one = await replica('one');
    await f.api.waitForPolling();
    // As after a clock jump or an operator's hand: the row names someone else.
    store.coordination.releaseLease(POLLING_LEASE, 'one');
    expect(store.coordination.lease(POLLING_LEASE, 'other', Date.now(), LEASE_MS * 10)).toBe(true);
    await until(() => !one.leadership.leading(), 1_000);
    expect(logsOf('one', 'lost the polling lease')[0]).toMatchObject({ err: { message: 'another replica holds the lease' } });
  });

  it('rejects `done` and gives the lease up when Telegram refuses the bot while it polls', async () => {
    const one = await replica('one');
    f.api.failNext('getUpdates', { error_code: 401 });
    await expect(one.leadership.done).rejects.toMatchObject({ code: 401 });
    expect(store.coordination.lease(POLLING_LEASE, 'someone else', Date.now(), LEASE_MS)).toBe(true);
  });

  it('stops within the grace while the runner is still retrying its start-up calls', async () => {
    f.api.failNext('deleteWebhook', { error_code: 502 }, { times: 1000 });
    const one = await replica('one');
    await f.api.waitForCall('deleteWebhook', { count: 2 });
    const started = Date.now();
    await one.leadership.stop(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Its start-up retries end too: the call in flight when it was abandoned is the last one
    // (awaited here, as it may reach the emulator after stop returns), and no retry follows.
    await Promise.race([one.startsEnded(), sleep(2_000).then(() => expect.fail('the abandoned start-up did not end'))]);
    const calls = f.api.callsTo('deleteWebhook').length;
    await sleep(300);
    expect(f.api.callsTo('deleteWebhook')).toHaveLength(calls);
    expect(store.coordination.lease(POLLING_LEASE, 'someone else', Date.now(), LEASE_MS)).toBe(true);
  });
});
