import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BotProcess } from '../support/bot-process.ts';
import { useBotProcesses } from '../support/process-fixture.ts';

// src/main.ts as the container runs it: a process, configured by its environment, talking to
// the Bot API emulator and the test portal over HTTP, logging JSON on stderr.

const GRACE_MS = 5000;

const f = useBotProcesses();

type Bot = BotProcess;

/** main.ts as the container runs it, on this test's emulator, portal and data directory. */
const startBot = (env: Record<string, string> = {}, { waitUntilReceiving = true } = {}): Promise<Bot> =>
  f.start({ SHUTDOWN_GRACE_MS: String(GRACE_MS), PORTAL_TIMEOUT_MS: '5000', ...env }, { waitUntilReceiving });

const get = async (bot: Bot, path: string) => {
  const response = await fetch(`http://127.0.0.1:${bot.port}${path}`);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
};

/** A temporary directory for a test's own files (a preload, what it records), removed afterwards. */
const withDirectory = async (prefix: string, run: (directory: string) => Promise<void>): Promise<void> => {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  try {
    await run(directory);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
};

/** How many minutes a wall clock reading hh:mm is from now in a zone `hoursEast` of UTC all year. */
const minutesFromNowIn = (hoursEast: number, hh: number, mm: number): number => {
  const now = new Date(Date.now() + hoursEast * 3_600_000);
  const difference = Math.abs(hh * 60 + mm - (now.getUTCHours() * 60 + now.getUTCMinutes()));
  return Math.min(difference, 1440 - difference);
};

/** Every secret and every log line: none may show any of them. */
const expectNoSecrets = (bot: Bot, secrets: string[]) => {
  expect(bot.garbage).toEqual([]);
  const text = bot.stderr();
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(8);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(encodeURIComponent(secret));
  }
};

describe('main.ts in polling mode', () => {
  it('serves /healthz, /readyz and /metrics, and logs JSON with no token, error paths included', async () => {
    const bot = await startBot();
    await f.api.waitForPolling();

    const health = await get(bot, '/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: 'ok' });

    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);

    const ready = await get(bot, '/readyz');
    expect(ready.type).toContain('application/json');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'ready', detail: { circuit: 'closed', lastPortalSuccess: expect.any(String) } });

    // A failing portal call (5xx twice: the retry fails too) and a Telegram error.
    f.portal.failNext('http500', 2);
    f.api.sendText({ from: user, text: '/order 0007300117' });
    expect((await f.api.nextBotMessage(user.id)).text).toContain('The portal answered with an error');
    f.api.failNext('sendRichMessage', { error_code: 400, description: 'Bad Request: chat not found' }, { chatId: user.id });
    f.api.sendText({ from: user, text: '/order 0007300134' });
    await bot.waitForLog((line) => line.msg === 'update failed' || line.msg === 'could not tell the user about a failure');
    await f.api.waitForIdle();

    // Telegram asks the bot to slow down once: the call waits and goes through, and is counted.
    f.api.failNext('sendRichMessage', { error_code: 429, retry_after: 1 }, { chatId: user.id });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    expect((await f.api.nextBotMessage(user.id, { after: 0 })).text).toBeDefined();
    await bot.waitForLog((line) => line.msg === 'telegram asked to slow down');
    await f.api.waitForIdle();

    const metrics = await get(bot, '/metrics');
    expect(metrics.status).toBe(200);
    // The process and runtime series operators look for, under their standard names, then the bot's own under orderbot_.
    expect(metrics.body).toMatch(/^process_resident_memory_bytes [1-9]\d+$/m);
    for (const series of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_gc_duration_seconds', 'nodejs_active_handles_total']) {
      expect(metrics.body, series).toMatch(new RegExp(`^# TYPE ${series} (gauge|counter|histogram)$`, 'm'));
    }
    expect(metrics.body).toMatch(/^orderbot_build_info\{version="\d+\.\d+\.\d+",node="v24\.[\d.]+"\} 1$/m);
    expect(metrics.body).toMatch(/^orderbot_telegram_rate_limited_total\{method="sendRichMessage"\} 1$/m);
    expect(metrics.body).toMatch(/^orderbot_portal_circuit_state 0$/m);
    expect(metrics.body).toMatch(/^# TYPE orderbot_exports_total counter$/m);
    const own = metrics.body.split('\n').filter((line) => line !== '' && !line.startsWith('#') && !/^(process|nodejs)_/.test(line));
    expect(own.filter((line) => !line.startsWith('orderbot_'))).toEqual([]);
    expect(metrics.body).toMatch(/^orderbot_updates_total\{type="message"\} [3-9]$/m);
    expect(metrics.body).toMatch(/^orderbot_portal_requests_total\{endpoint="\w+",outcome="ok"\} [1-9]\d*$/m);
    expect(metrics.body).toMatch(/^orderbot_portal_requests_total\{endpoint="\w+",outcome="\w+"\} [1-9]\d*$/m);
    expect(metrics.body).toContain('outcome="PORTAL_HTTP"');

    // Nothing it did needed libuv's thread pool (four threads and their memory): no file or DNS
    // work off the loop, log lines written by the loop itself (src/logger.ts).
    const threads = readdirSync(`/proc/${bot.child.pid}/task`).map((task) => readFileSync(`/proc/${bot.child.pid}/task/${task}/comm`, 'utf8').trim());
    expect(threads).toContain('MainThread');
    expect(threads).not.toContain('libuv-worker');

    bot.child.kill('SIGTERM');
    expect((await bot.exited).code).toBe(0);
    expect(bot.lines.some((line) => line.msg === 'portal call failed, retrying')).toBe(true);
    expect(bot.lines.some((line) => line.audit === true && line.userId === user.id && line.results === 1)).toBe(true);
    expectNoSecrets(bot, [f.api.token, f.api.token.split(':')[1] ?? '', f.portal.token]);
  });

  it('writes numbers, dates and the time of the answer as the glossary does, in TIME_ZONE', async () => {
    const bot = await startBot({ TIME_ZONE: 'Asia/Yekaterinburg' });
    await f.api.waitForPolling();
    const user = f.api.createUser({ language_code: 'ru' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    const card = await f.api.nextBotMessage(user.id);
    expect(card.text).toMatch(/\d{2}\.\d{2}\.\d{4}/); // dates
    expect(card.text).toMatch(/\d,\d+\u00a0т/); // tonnes, a decimal comma
    const [, hh, mm] = /обновлено (\d{2}):(\d{2})/.exec(card.text)!;
    expect(minutesFromNowIn(5, Number(hh), Number(mm))).toBeLessThanOrEqual(1); // Yekaterinburg is UTC+5 all year
    f.api.sendText({ from: user, text: '/spec ДП-77/2026' });
    expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Спецификации 1–5 из \d+\n/);
    await f.api.waitForIdle();
    expect(bot.stderr()).not.toContain('"level":50');
  });

  it('takes TIME_ZONE in another spelling, without a word, and answers in that zone', async () => {
    const bot = await startBot({ TIME_ZONE: 'asia/yekaterinburg' });
    await f.api.waitForPolling();
    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    const [, hh, mm] = /updated (\d{2}):(\d{2})/.exec((await f.api.nextBotMessage(user.id)).text)!;
    expect(minutesFromNowIn(5, Number(hh), Number(mm))).toBeLessThanOrEqual(1);
    expect(bot.lines.filter((line) => typeof line.msg === 'string' && line.msg.includes('TIME_ZONE'))).toEqual([]);
  });

  it('ends on an error no handler caught with a fatal log line, not a bare stack, and exit status 1', async () => {
    // A preload that makes such an error on SIGUSR2, in a callback of its own, as a bug would.
    await withDirectory('uncaught-', async (directory) => {
      const probe = join(directory, 'probe.mjs');
      writeFileSync(probe, `process.on('SIGUSR2', () => setImmediate(() => { throw new Error('a bug nobody caught'); }));\n`);
      const bot = await startBot({ NODE_OPTIONS: `--import=${probe}` });
      await f.api.waitForPolling();
      const user = f.api.createUser({ language_code: 'en' });
      f.api.sendText({ from: user, text: '/order 0007300100' });
      expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);
      bot.child.kill('SIGUSR2');
      expect((await bot.exited).code).toBe(1);
      const fatal = bot.lines.filter((line) => line.level === 60);
      expect(fatal).toEqual([expect.objectContaining({ msg: 'uncaught error: the bot stops', err: expect.objectContaining({ message: 'a bug nobody caught' }) })]);
      expect(bot.garbage).toEqual([]);
    });
  });

  it('on SIGTERM answers the lookup in flight, then exits 0 within the grace', async () => {
    const bot = await startBot();
    await f.api.waitForPolling();
    const hold = f.portal.hangWhere((url) => url.includes('0007300100'));
    const user = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: user, text: '/order 0007300100' });
    await f.api.waitFor(() => hold.count() === 1, { description: 'the lookup held by the portal' });

    const signalled = performance.now();
    bot.child.kill('SIGTERM');
    await bot.waitForLog((line) => line.msg === 'stopping: no new updates, finishing those in flight');
    // A message sent after the stop is not taken.
    const late = f.api.createUser({ language_code: 'en' });
    f.api.sendText({ from: late, text: '/order 0007300117' });
    const released = setTimeout(() => hold.release(), 1000);
    const reply = await f.api.nextBotMessage(user.id);
    expect(reply.text).toMatch(/^Order No\. \d{10} dated /);
    const exit = await bot.exited;
    clearTimeout(released);
    expect(exit.code).toBe(0);
    expect(exit.at - signalled).toBeGreaterThanOrEqual(900);
    expect(exit.at - signalled).toBeLessThan(GRACE_MS);
    expect(f.api.messagesIn(late.id)).toEqual([]);
    expect(bot.lines.some((line) => line.msg === 'stopped')).toBe(true);
  });
});

describe('main.ts in webhook mode', () => {
  it('sets the webhook with a secret and the update types, and handles only posts with the right secret', async () => {
    const bot = await startBot({ WEBHOOK_URL: 'https://example.invalid/hook/abc' });
    const hook = f.api.webhook;
    expect(hook?.url).toBe('https://example.invalid/hook/abc');
    const params = hook?.params ?? {};
    const allowed: unknown = typeof params.allowed_updates === 'string' ? JSON.parse(params.allowed_updates) : params.allowed_updates;
    expect(allowed).toEqual(['message', 'callback_query', 'inline_query', 'my_chat_member', 'guest_message']);
    const secret = params.secret_token;
    expect(typeof secret).toBe('string');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{16,256}$/);

    const user = f.api.createUser({ language_code: 'en' });
    const message = f.api.sendText({ from: user, text: '/order 0007300100' });
    let updateId = 900_000;
    const post = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${bot.port}/hook/abc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ update_id: (updateId += 1), message }),
      });

    expect((await post({ 'x-telegram-bot-api-secret-token': 'wrong-secret' })).status).toBe(401);
    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-telegram-bot-api-secret-token': secret as string })).status).toBe(200);
    const reply = await f.api.nextBotMessage(user.id);
    expect(reply.text).toMatch(/^Order No\. \d{10} dated /);
    expect(bot.lines.filter((line) => line.msg === 'webhook request without the right secret token')).toHaveLength(2);

    bot.child.kill('SIGTERM');
    expect((await bot.exited).code).toBe(0);
    // One answer: the two refused posts were not handled.
    expect(f.api.callsTo('sendRichMessage', { chatId: user.id })).toHaveLength(1);
    expectNoSecrets(bot, [f.api.token, f.api.token.split(':')[1] ?? '', f.portal.token, secret as string]);
  });
});

describe('main.ts when Telegram fails at start', () => {
  it('retries a Bot API that answers 502 at first, starts the webhook, answers, and never logs the generated secret', async () => {
    f.api.failNext('getMe', { error_code: 502 }, { times: 2 });
    f.api.failNext('setWebhook', { error_code: 502 });
    const bot = await startBot({ WEBHOOK_URL: 'https://example.invalid/hook/abc' });
    const secret = String(f.api.webhook?.params.secret_token);
    const user = f.api.createUser({ language_code: 'en' });
    const message = f.api.sendText({ from: user, text: '/order 0007300100' });
    const response = await fetch(`http://127.0.0.1:${bot.port}/hook/abc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify({ update_id: 1, message }),
    });
    expect(response.status).toBe(200);
    expect((await f.api.nextBotMessage(user.id)).text).toMatch(/^Order No\. \d{10} dated /);
    expect(bot.lines.filter((line) => line.msg === 'a Telegram call at start failed, retrying').map((line) => line.method)).toEqual([
      'getMe',
      'getMe',
      'setWebhook',
    ]);

    bot.child.kill('SIGTERM');
    expect((await bot.exited).code).toBe(0);
    expectNoSecrets(bot, [f.api.token, secret]);
  });

  it('exits 1 at once when Telegram refuses the token', async () => {
    const bot = await startBot({ BOT_TOKEN: '123456:AAthisIsNotTheEmulatorsToken' }, { waitUntilReceiving: false });
    expect((await bot.exited).code).toBe(1);
    expect(bot.lines.some((line) => line.msg === 'a Telegram call at start failed, retrying')).toBe(false);
    expect(f.api.callsTo('getMe')).toHaveLength(1);
  });
});
