import { describe, expect, it } from 'vitest';
import { terminate, type BotProcess } from '../support/bot-process.ts';
import { useBotProcesses } from '../support/process-fixture.ts';
import { freshDatabase } from '../support/pg-database.ts';

// Two real bot processes polling Telegram, on one PostgreSQL database: one polls, the other
// stands by, and takes over within the lease when the first is killed.

const LEASE_SECONDS = 3;

const f = useBotProcesses();

const startReplica = (databaseUrl: string) =>
  f.start({ DATABASE_URL: databaseUrl, LEADER_LEASE_SECONDS: String(LEASE_SECONDS), SHUTDOWN_GRACE_MS: '3000', PORTAL_TIMEOUT_MS: '5000' });

const leads = (bot: BotProcess) => bot.lines.some((line) => line.msg === 'took over polling');
/** getUpdates calls Telegram refused with 409 (not the emulator's record of a poll the bot aborted). */
const conflicts = () => f.api.callsTo('getUpdates').filter((call) => !call.response.ok && call.response.error_code === 409).length;

describe('two polling replicas on one database', () => {
  it('poll from one only, answer each message once, and hand over within the lease after kill -9', async () => {
    const url = await freshDatabase();
    const [one, two] = await Promise.all([startReplica(url), startReplica(url)]);
    await f.api.waitForPolling();
    const leader = [one, two].find(leads)!;
    const standby = [one, two].find((bot) => bot !== leader)!;
    expect([one, two].filter(leads)).toEqual([leader]);
    // The standby called nothing but getMe: it never started polling.
    expect(standby.lines.some((line) => line.msg === 'polling started')).toBe(false);
    expect(standby.lines.filter((line) => line.msg === 'standing by: another replica polls')).toHaveLength(1);
    expect(standby.lines.find((line) => line.msg === 'receiving updates')).toMatchObject({ mode: 'polling', leading: false });

    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(user.id)).text).toContain('Orders 1–1 of 1');
    await f.api.waitForIdle();
    expect(f.api.callsTo('sendMessage', { chatId: user.id })).toHaveLength(1);
    const metrics = async (bot: BotProcess) => (await fetch(`http://127.0.0.1:${bot.port}/metrics`)).text();
    expect(await metrics(leader)).toMatch(/^polling_leader 1$/m);
    expect(await metrics(standby)).toMatch(/^polling_leader 0$/m);

    const killedAt = performance.now();
    leader.child.kill('SIGKILL');
    await leader.exited;
    await standby.waitForLog((line) => line.msg === 'took over polling', (LEASE_SECONDS + 3) * 1000);
    const tookOverMs = performance.now() - killedAt;
    // Within LEADER_LEASE_SECONDS of the death (the lease is held 2/3 of it, tried for every 1/6).
    expect(tookOverMs).toBeLessThan(LEASE_SECONDS * 1000);
    f.api.sendText({ from: user, text: '/order 0007300117' });
    expect((await f.api.nextBotMessage(user.id)).text).toContain('Orders 1–1 of 1');
    expect(await metrics(standby)).toMatch(/^polling_leader 1$/m);
    // No 409 storm: a hand-over may cost one or two conflicts at most.
    expect(conflicts()).toBeLessThanOrEqual(2);

    expect((await terminate(standby)).code).toBe(0);
    console.info(`polling hand-over after kill -9: ${Math.round(tookOverMs)} ms (lease ${LEASE_SECONDS} s)`);
  });

  it('hand over at once when the leader stops with SIGTERM (the lease is given up)', async () => {
    const url = await freshDatabase();
    const one = await startReplica(url);
    const two = await startReplica(url);
    await f.api.waitForPolling();
    expect([leads(one), leads(two)]).toEqual([true, false]);
    const stoppedAt = performance.now();
    expect((await terminate(one)).code).toBe(0);
    await two.waitForLog((line) => line.msg === 'took over polling', 3000);
    expect(performance.now() - stoppedAt).toBeLessThan(LEASE_SECONDS * 1000);
    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(user.id)).text).toContain('Orders 1–1 of 1');
    expect(conflicts()).toBe(0);
  });
});
