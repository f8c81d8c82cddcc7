import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/schema.ts';
import type { BotMessage } from '../support/bot-api/index.ts';
import { terminate, type BotProcess } from '../support/bot-process.ts';
import { useBotProcesses } from '../support/process-fixture.ts';
import { freshDatabase } from '../support/pg-database.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts';

// Two real bot processes receiving webhooks behind a round-robin proxy, on one PostgreSQL
// database; the emulator posts updates as Telegram does (one per chat in flight) to the proxy.

const PUBLIC_URL = 'https://bot.example.invalid';

let proxy: RoundRobinProxy;
beforeEach(async () => {
  proxy = await startRoundRobinProxy();
});
afterEach(() => proxy.close());
const f = useBotProcesses({
  apiOptions: () => ({
    waitTimeoutMs: 10_000,
    // Telegram posts to the public URL; here that is the proxy, path kept.
    webhookTarget: (url) => (url.startsWith(`${PUBLIC_URL}/`) ? `${proxy.url}${new URL(url).pathname}` : undefined),
  }),
});

const startReplica = (databaseUrl: string) =>
  f.start({
    DATABASE_URL: databaseUrl,
    // No path and no WEBHOOK_SECRET: both derived from the bot token, alike in every replica.
    WEBHOOK_URL: PUBLIC_URL,
    SHUTDOWN_GRACE_MS: '3000',
    PORTAL_TIMEOUT_MS: '5000',
  });

const upstreamOf = (bot: BotProcess) => `http://127.0.0.1:${bot.port}`;

/** Which replica served the requests made by `step`, read from the proxy's counts. */
const servedBy = async <T>(replicas: BotProcess[], step: () => Promise<T>): Promise<{ result: T; by: BotProcess[] }> => {
  const before = proxy.served();
  const result = await step();
  await f.api.waitForIdle();
  const after = proxy.served();
  return { result, by: replicas.filter((bot) => (after[upstreamOf(bot)] ?? 0) > (before[upstreamOf(bot)] ?? 0)) };
};

const button = (message: BotMessage, text: string): string => {
  const found = message.buttons.find((candidate) => candidate.text === text);
  if (found === undefined || !('callback_data' in found)) throw new Error(`no "${text}" button in: ${JSON.stringify(message.buttons)}`);
  return found.callback_data;
};

describe('two webhook replicas behind a proxy, on one database', () => {
  it('set the webhook once, serve each other’s buttons and settings, keep a chat in order, and survive kill -9 of one', async () => {
    const url = await freshDatabase();
    const [one, two] = await Promise.all([startReplica(url), startReplica(url)]);
    const replicas = [one, two];
    // Started together: one setWebhook call in all (a second within a second would be a 429).
    expect(f.api.callsTo('setWebhook')).toHaveLength(1);
    const started = replicas.map((bot) => bot.lines.find((line) => line.msg === 'receiving updates'));
    expect(started.map((line) => line?.setWebhook).sort()).toEqual([false, true]);
    expect(started[0]?.path).toMatch(/^\/telegram\/[\w-]{20,}$/);
    expect(started[1]?.path).toBe(started[0]?.path);
    expect(f.api.webhook?.url).toBe(`${PUBLIC_URL}${String(started[0]?.path)}`);
    proxy.setUpstreams(replicas.map(upstreamOf));

    // A results message made by one replica, its ▶ pressed and served by the other.
    const user = f.api.createUser({ language_code: 'ru' });
    const asked = await servedBy(replicas, async () => {
      f.api.sendText({ from: user, text: '/lang' });
      return f.api.nextBotMessage(user.id);
    });
    const chosen = await servedBy(replicas, async () => {
      const id = f.api.pressButton({ from: user, message: asked.result, data: button(asked.result, 'English') });
      return f.api.waitForAnswer(id);
    });
    expect(chosen.result.text).toContain('English');
    expect(chosen.by).toHaveLength(1);
    expect(chosen.by).not.toEqual(asked.by);
    // /lang set through one replica holds on the next update, served by the other.
    const listed = await servedBy(replicas, async () => {
      f.api.sendText({ from: user, text: '/order status production' });
      return f.api.nextBotMessage(user.id);
    });
    expect(listed.result.text.split('\n')[0]).toBe('Orders 1–5 of 21');
    expect(listed.by).toEqual(asked.by);
    const paged = await servedBy(replicas, async () => {
      f.api.pressButton({ from: user, message: listed.result, data: button(listed.result, '▶') });
      return f.api.waitForEdit(user.id, listed.result.message_id);
    });
    expect(paged.result.text.split('\n')[0]).toBe('Orders 6–10 of 21');
    expect(paged.by).not.toEqual(listed.by);

    // Two quick presses in one chat: the second is posted only after the first was handled and answered.
    const first = f.api.pressButton({ from: user, message: paged.result, data: button(paged.result, '▶') });
    const second = f.api.pressButton({ from: user, message: paged.result, data: button(paged.result, '◀') });
    await Promise.all([f.api.waitForAnswer(first), f.api.waitForAnswer(second)]);
    await f.api.waitForIdle();
    const presses = f.api.webhookAttempts.filter((attempt) => attempt.queue === `callback:${user.id}` && attempt.outcome === 'ok').slice(-2);
    const answered = f.api.callsTo('answerCallbackQuery').find((call) => call.params.callback_query_id === first);
    expect(presses[1]!.started_ms).toBeGreaterThanOrEqual(presses[0]!.ended_ms!);
    expect(presses[0]!.ended_ms).toBeGreaterThanOrEqual(answered!.done_ms);
    // Handled in the order pressed: ▶ to page 3, then ◀ (from page 2's buttons) back to page 1.
    expect(f.api.message(user.id, listed.result.message_id)?.text.split('\n')[0]).toBe('Orders 1–5 of 21');

    // kill -9 of the replica handling a lookup: Telegram posts it again, and the other answers.
    const hold = f.portal.hangWhere((target) => target.includes('0007300134'));
    f.api.sendText({ from: user, text: '/order 0007300134' });
    await f.api.waitFor(() => hold.count() === 1, { description: 'the lookup held by the portal' });
    const busy = replicas.find((bot) => (proxy.inFlight()[upstreamOf(bot)] ?? 0) > 0)!;
    const survivor = replicas.find((bot) => bot !== busy)!;
    busy.child.kill('SIGKILL');
    await busy.exited;
    hold.release();
    expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);
    for (const order of ['0007300100', '0007300117']) {
      f.api.sendText({ from: user, text: `/order ${order}` });
      expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);
    }
    await f.api.waitForIdle();
    expect(proxy.refused()[upstreamOf(busy)]).toBeGreaterThan(0);
    // The post cut off by the kill failed (the proxy's 502) and was posted again, to the survivor.
    const cutOff = f.api.webhookAttempts.find((attempt) => attempt.outcome === 'Wrong response from the webhook: 502 Bad Gateway');
    expect(f.api.webhookAttempts.filter((attempt) => attempt.update_id === cutOff?.update_id).map((attempt) => attempt.outcome)).toEqual([cutOff?.outcome, 'ok']);
    expect(f.api.failedCalls()).toEqual([]);

    expect((await terminate(survivor)).code).toBe(0);
  });

  it('start together on an empty database: both run, and each migration ran once', async () => {
    const url = await freshDatabase();
    const replicas = await Promise.all([startReplica(url), startReplica(url), startReplica(url)]);
    expect(replicas.every((bot) => bot.alive())).toBe(true);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((row) => row.version)).toEqual(POSTGRES_MIGRATIONS.map((_, index) => index + 1));
    } finally {
      await client.end();
    }
    expect(f.api.callsTo('setWebhook')).toHaveLength(1);
  });
});
