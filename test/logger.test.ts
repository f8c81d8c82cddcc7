import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Telegram, TelegramError } from '../src/telegram/telegraf/core.ts';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, flushStandardError, redactSecrets, standardError } from '../src/logger.ts';
import { ROOT } from './support/start-command.ts';

const BOT_TOKEN = '7000000001:AAEmulatedTestToken-0123456789abcdefXYZ';
const PORTAL_TOKEN = 'portal+token/with=odd"chars';

const capture = () => {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { destination, output: () => chunks.join('') };
};

describe('redactSecrets', () => {
  it('replaces every occurrence, also URL-encoded and JSON-escaped', () => {
    const redact = redactSecrets([BOT_TOKEN, PORTAL_TOKEN, '']);
    expect(redact(`GET https://api.telegram.org/bot${BOT_TOKEN}/getMe and again ${BOT_TOKEN}`)).toBe(
      'GET https://api.telegram.org/bot[REDACTED]/getMe and again [REDACTED]',
    );
    expect(redact(`?token=${encodeURIComponent(BOT_TOKEN)}&t=${encodeURIComponent(BOT_TOKEN).replace('%3A', '%3a')}`)).toBe('?token=[REDACTED]&t=[REDACTED]');
    expect(redact(`?p=${encodeURIComponent(PORTAL_TOKEN)}`)).toBe('?p=[REDACTED]');
    expect(redact(JSON.stringify({ authorization: `Bearer ${PORTAL_TOKEN}` }))).toBe('{"authorization":"Bearer [REDACTED]"}');
    expect(redact('nothing to hide')).toBe('nothing to hide');
  });

  it('redacts a secret containing another one whole', () => {
    const redact = redactSecrets(['abcdefghijkl', 'xxabcdefghijklxx']);
    expect(redact('1 xxabcdefghijklxx 2 abcdefghijkl')).toBe('1 [REDACTED] 2 [REDACTED]');
  });

  it('redacts a short secret only where it stands as a value, so that a password like `store` leaves the words alone', () => {
    const redact = redactSecrets(['store']);
    for (const line of ['the store is PostgreSQL', '{"msg":"the store does not answer","store":"postgres"}', '{"msg":"stores: restore the store"}'])
      expect(redact(line)).toBe(line);
    expect(redact('postgres://bot:store@postgres:5432/bot')).toBe('postgres://bot:[REDACTED]@postgres:5432/bot');
    expect(redact('postgres://bot@postgres/bot?password=store&sslmode=require')).toBe('postgres://bot@postgres/bot?password=[REDACTED]&sslmode=require');
    expect(redact('host=postgres password=store dbname=bot')).toBe('host=postgres password=[REDACTED] dbname=bot');
    expect(redact('{"password":"store","url":"postgres://bot:store@db/bot?password=store"}')).toBe(
      '{"password":"[REDACTED]","url":"postgres://bot:[REDACTED]@db/bot?password=[REDACTED]"}',
    );
    expect(redact('{"authorization":"Bearer store"}')).toBe('{"authorization":"Bearer [REDACTED]"}');
    // Encoded as a URL or a JSON string holds it: the same positions.
    expect(redactSecrets(['p@ss w"d'])('postgres://bot:p%40ss%20w%22d@db/bot {"password":"p@ss w\\"d"}')).toBe(
      'postgres://bot:[REDACTED]@db/bot {"password":"[REDACTED]"}',
    );
  });

  it('leaves text alone without secrets', () => {
    expect(redactSecrets([])('a.b*c')).toBe('a.b*c');
  });
});

describe('createLogger', () => {
  it('follows a secret that changes, such as a rotated portal token', async () => {
    const { destination, output } = capture();
    let token = 'first-portal-token-111';
    const logger = createLogger({ level: 'info', secrets: () => [token], destination });
    logger.info({ header: `Bearer ${token}` }, 'one');
    token = 'second-portal-token-222';
    logger.info({ header: 'Bearer second-portal-token-222' }, 'two');
    await new Promise((resolve) => setImmediate(resolve));
    const text = output();
    expect(text).not.toContain('first-portal-token-111');
    expect(text).not.toContain('second-portal-token-222');
    expect(text.match(/\[REDACTED\]/g)).toHaveLength(2);
  });

  it('follows a list of secrets that grows in place, such as a webhook secret learnt at start', async () => {
    const { destination, output } = capture();
    const list = ['first-secret-aaa'];
    const logger = createLogger({ level: 'info', secrets: () => list, destination });
    logger.info('one first-secret-aaa');
    list.push('second-secret-bbb');
    logger.info('two second-secret-bbb first-secret-aaa');
    await new Promise((resolve) => setImmediate(resolve));
    expect(output()).not.toMatch(/first-secret|second-secret/);
    expect(output().match(/\[REDACTED\]/g)).toHaveLength(3);
  });

  it('keeps the secrets out of every line, errors, stacks, bindings and children included', async () => {
    const { destination, output } = capture();
    const logger = createLogger({ level: 'debug', secrets: [BOT_TOKEN, PORTAL_TOKEN], destination });
    const error = new Error(`request to https://api.telegram.org/bot${BOT_TOKEN}/sendMessage failed`);
    error.stack = `${error.message}\n    at fetch (https://api.telegram.org/bot${BOT_TOKEN}/getUpdates)`;
    error.cause = new Error(`Authorization: Bearer ${PORTAL_TOKEN}`);
    logger.error({ err: error }, 'the bot could not start');
    logger.info({ headers: { authorization: `Bearer ${PORTAL_TOKEN}` }, url: `/bot${encodeURIComponent(BOT_TOKEN)}/getMe` }, 'request');
    logger.child({ token: BOT_TOKEN }).warn(`message with %s`, BOT_TOKEN);
    const telegraf = await new Telegram(BOT_TOKEN, { apiRoot: 'http://127.0.0.1:1' }).getMe().catch((e: unknown) => e);
    logger.error({ err: telegraf }, 'telegraf failed');

    const lines = output().trim().split('\n');
    expect(lines).toHaveLength(4);
    const text = output();
    for (const secret of [BOT_TOKEN, PORTAL_TOKEN, BOT_TOKEN.split(':')[1]!, JSON.stringify(PORTAL_TOKEN).slice(1, -1), encodeURIComponent(BOT_TOKEN)]) {
      expect(text).not.toContain(secret);
    }
    const [first, second, third] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({
      msg: 'the bot could not start',
      err: { message: 'request to https://api.telegram.org/bot[REDACTED]/sendMessage failed: Authorization: Bearer [REDACTED]' },
    });
    expect(String((first?.err as { stack: string }).stack)).toContain('bot[REDACTED]/getUpdates');
    expect(JSON.stringify(first)).toContain('Bearer [REDACTED]');
    expect(second).toMatchObject({ headers: { authorization: 'Bearer [REDACTED]' }, url: '/bot[REDACTED]/getMe' });
    expect(third).toMatchObject({ token: '[REDACTED]', msg: 'message with [REDACTED]' });
  });
});

describe('the err serializer', () => {
  it('logs the method of a failed Telegram call and the error, never its payload', async () => {
    const { destination, output } = capture();
    const logger = createLogger({ level: 'info', secrets: [], destination });
    const error = new TelegramError(
      { error_code: 400, description: 'Bad Request: chat not found' },
      { method: 'sendMessage', payload: { chat_id: 1, text: 'Заказ 0007300100 на 530х8' } },
    );
    logger.error({ err: error }, 'update failed');
    logger.error({ err: new Error('plain', { cause: error }) }, 'wrapped');
    const [line] = output().trim().split('\n').map((text) => JSON.parse(text) as { err: Record<string, unknown> });
    expect(line?.err).toMatchObject({ type: 'TelegramError', message: '400: Bad Request: chat not found', on: { method: 'sendMessage' } });
    expect(output()).not.toContain('0007300100');
    expect(output()).not.toContain('payload');
  });
});

describe('log lines on standard error', () => {
  it('of one turn of the event loop go out as one write at its end, in order; a flush writes them at once', async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string, callback?: () => void) => {
      writes.push(String(chunk));
      if (typeof callback === 'function') callback();
      return true;
    }) as typeof process.stderr.write);
    try {
      const destination = standardError();
      destination.write('{"level":30,"n":1}\n');
      destination.write('{"level":30,"n":2}\n');
      expect(writes).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes).toEqual(['{"level":30,"n":1}\n{"level":30,"n":2}\n']);
      destination.write('{"level":30,"n":3}\n');
      await flushStandardError(1_000);
      expect(writes.slice(1)).toEqual(['{"level":30,"n":3}\n', '']);
      // A burst past 64 KiB is written as it comes, not held.
      destination.write(`${'x'.repeat(70_000)}\n`);
      expect(writes).toHaveLength(4);
      // A warning or worse goes at once, after the lines before it: a crash without an exit event loses none of them.
      destination.write('{"level":30,"msg":"lookup"}\n');
      destination.write('{"level":50,"msg":"update failed"}\n');
      expect(writes.slice(4)).toEqual(['{"level":30,"msg":"lookup"}\n{"level":50,"msg":"update failed"}\n']);
    } finally {
      spy.mockRestore();
    }
  });

  // A child process logs through the real default destination; the test plays its log reader.
  const logging = (body: string) =>
    spawn(
      process.execPath,
      ['--input-type=module', '-e', `import { createLogger, flushStandardError } from ${JSON.stringify(join(ROOT, 'src', 'logger.ts'))};\nconst logger = createLogger({ level: 'info', secrets: ['s3cret-s3cret'] });\n${body}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
  const finished = (child: ReturnType<typeof spawn>) => new Promise<number | null>((resolve) => child.once('close', resolve));

  it('wait in memory for a reader that lags, and reach it all, in order, when the bot stops', async () => {
    // 5,000 lines of 400 bytes: 30 times what a pipe holds. process.exit alone dropped most of them.
    const child = logging(`for (let i = 0; i < 5000; i++) logger.info({ i }, 'line s3cret-s3cret ' + 'x'.repeat(300));\nprocess.stdout.write('written\\n');\nawait flushStandardError(30_000);\nprocess.exit(0);`);
    child.stderr!.pause();
    const lines: string[] = [];
    child.stdout!.once('data', () => setTimeout(() => child.stderr!.resume(), 300));
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    expect(await finished(child)).toBe(0);
    expect(lines).toHaveLength(5000);
    expect(lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual([...Array(5000).keys()]);
    expect(lines.every((line) => line.includes('line [REDACTED] x'))).toBe(true);
  });

  it("carry Node's process warnings as JSON lines, once each, where Node would write plain text", async () => {
    const child = logging(
      `import { logProcessWarnings } from ${JSON.stringify(join(ROOT, 'src', 'logger.ts'))};\nlogProcessWarnings(logger);\n` +
        `new Buffer(1); new Buffer(2);\nprocess.emitWarning('too many listeners', { code: 'X_LISTENERS' }); process.emitWarning('too many listeners again', { code: 'X_LISTENERS' });\n` +
        `process.emitWarning('no code'); process.emitWarning('no code');`,
    );
    const lines: string[] = [];
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    expect(await finished(child)).toBe(0);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map(({ level, msg, warning }) => ({ level, msg, warning }))).toEqual([
      { level: 30, msg: 'process warning', warning: { name: 'DeprecationWarning', code: 'DEP0005', message: expect.stringContaining('Buffer() is deprecated') } },
      { level: 40, msg: 'process warning', warning: { name: 'Warning', code: 'X_LISTENERS', message: 'too many listeners' } },
      { level: 40, msg: 'process warning', warning: { name: 'Warning', message: 'no code' } },
    ]);
  });

  it('do not stop the bot when their reader is gone (EPIPE)', async () => {
    const child = logging(`for (let k = 0; k < 50; k++) { for (let i = 0; i < 100; i++) logger.info({ i }, 'line ' + 'x'.repeat(300)); await new Promise((r) => setTimeout(r, 5)); }\nprocess.stdout.write('alive\\n');`);
    child.stderr!.destroy();
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await finished(child)).toBe(0);
    expect(output).toBe('alive\n');
  });
});
