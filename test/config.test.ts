import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.ts';

/** The heap the start command gives node: 192 MiB old space and 3 × 16 MiB young. */
const HEAP = 240 * 1024 * 1024;
const MIB = 1024 * 1024;

const problemsOf = (env: Record<string, string>, heapLimitBytes = HEAP) => {
  try {
    parseConfig(env, heapLimitBytes);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('parseConfig', () => {
  it('runs with no configuration at all: console chat on the demo portal, open to anyone', () => {
    const config = parseConfig({});
    expect(config.botToken).toBeUndefined();
    expect(config.portal).toEqual({ kind: 'demo', timeoutMs: 10_000, maxBodyBytes: 4_194_304, cacheTtlMs: 30_000, cacheMaxBytes: 33_554_432, circuit: { failureThreshold: 5, openMs: 30_000 } });
    expect(config.webhook).toBeUndefined();
    expect(config.port).toBeUndefined();
    expect(config.concurrency).toBe(50);
    expect(config.handlerDeadlineMs).toBe(60_000);
    expect(config.shutdownGraceMs).toBe(7_000);
    expect(config.access.anyone).toBe(true);
    expect(config.defaultLanguage).toBe('ru');
    expect(config.pageSize).toBe(5);
    expect(config.telegramApiRoot).toBe('https://api.telegram.org');
    expect(config.dataDir).toBe('data');
    expect(config.timeZone).toBe('Europe/Moscow');
  });

  it('reads a full production configuration', () => {
    const config = parseConfig({
      BOT_TOKEN: '123456789:AAE-abcdefghijklmnopqrstuvwxyz_0123',
      TELEGRAM_API_ROOT: 'http://localhost:8081/',
      PORTAL_URL: 'https://portal.example/',
      PORTAL_TOKEN: 'secret',
      ALLOWED_USER_IDS: '1, 22,333',
      ALLOWED_CHAT_IDS: '-1001234567890',
      DEFAULT_LANGUAGE: 'EN',
      PAGE_SIZE: '20',
      PORTAL_TIMEOUT_MS: '2500',
    });
    expect(config.portal).toEqual({ kind: 'remote', url: 'https://portal.example', token: 'secret', tokenFile: undefined, timeoutMs: 2500, maxBodyBytes: 4_194_304, cacheTtlMs: 30_000, cacheMaxBytes: 33_554_432, circuit: { failureThreshold: 5, openMs: 30_000 } });
    expect([...config.access.userIds]).toEqual([1, 22, 333]);
    expect([...config.access.chatIds]).toEqual([-1001234567890]);
    expect(config.access.anyone).toBe(false);
    expect(config.defaultLanguage).toBe('en');
    expect(config.pageSize).toBe(20);
    expect(config.telegramApiRoot).toBe('http://localhost:8081');
  });

  it('refuses a real portal with nobody allowed, unless ALLOW_ANYONE=true', () => {
    const env = { PORTAL_URL: 'https://portal.example', PORTAL_TOKEN: 'secret' };
    expect(problemsOf(env)).toEqual([expect.stringContaining('ALLOW_ANYONE=true')]);
    expect(parseConfig({ ...env, ALLOW_ANYONE: 'true' }).access.anyone).toBe(true);
    expect(problemsOf({ ...env, ALLOW_ANYONE: 'false' })).toHaveLength(1);
  });

  it('reads the admins, who also open a real portal', () => {
    const env = { PORTAL_URL: 'https://portal.example', PORTAL_TOKEN: 'secret' };
    expect([...parseConfig({ ...env, ADMIN_USER_IDS: '42, 8000000000' }).access.adminIds]).toEqual([42, 8_000_000_000]);
    expect(parseConfig({}).access.adminIds.size).toBe(0);
    expect(problemsOf({ ...env, ADMIN_USER_IDS: '42,-1001234567890' })).toEqual(["ADMIN_USER_IDS: must be users' ids (positive numbers); a group's id is negative"]);
    expect(problemsOf({ ...env, ADMIN_USER_IDS: 'boss' })).toEqual(['ADMIN_USER_IDS: not Telegram ids: boss']);
  });

  it('names every bad value', () => {
    const problems = problemsOf({
      BOT_TOKEN: 'nonsense',
      PAGE_SIZE: '7',
      DEFAULT_LANGUAGE: 'de',
      ALLOWED_USER_IDS: '12,abc',
      ALLOW_ANYONE: 'sure',
      PORTAL_URL: 'ftp://x',
      PORTAL_TIMEOUT_MS: 'soon',
      TIME_ZONE: 'Mars/Olympus',
      DATA_DIR: '  ',
    });
    const text = problems.join('\n');
    for (const name of ['BOT_TOKEN', 'PAGE_SIZE', 'DEFAULT_LANGUAGE', 'ALLOWED_USER_IDS', 'ALLOW_ANYONE', 'PORTAL_URL', 'PORTAL_TIMEOUT_MS', 'TIME_ZONE', 'DATA_DIR']) {
      expect(text).toContain(name);
    }
    expect(text).toContain('5, 10, 20');
    expect(text).toContain('PORTAL_TIMEOUT_MS: must be a whole number of milliseconds from 100 to 120000');
    expect(text).toContain('abc');
  });

  it('refuses an empty or fractional number rather than reading it as 0', () => {
    expect(problemsOf({ CONCURRENCY: ' ' })).toEqual([expect.stringContaining('CONCURRENCY')]);
    expect(problemsOf({ FLOOD_LIMIT_PER_MINUTE: '2.5' })).toEqual([expect.stringContaining('FLOOD_LIMIT_PER_MINUTE')]);
    expect(parseConfig({ PORTAL_CIRCUIT_OPEN_SECONDS: '0.5' }).portal.circuit.openMs).toBe(500);
  });

  it('reads the portal body cap and the handler deadline, within their ranges', () => {
    const config = parseConfig({ PORTAL_MAX_BODY_BYTES: '1048576', HANDLER_DEADLINE_SECONDS: '30' });
    expect(config.portal.maxBodyBytes).toBe(1_048_576);
    expect(config.handlerDeadlineMs).toBe(30_000);
    expect(problemsOf({ PORTAL_MAX_BODY_BYTES: '1000' })).toEqual([
      'PORTAL_MAX_BODY_BYTES: must be a whole number of bytes from 65536 to 67108864',
    ]);
    expect(problemsOf({ HANDLER_DEADLINE_SECONDS: '0' })).toEqual([
      'HANDLER_DEADLINE_SECONDS: must be a whole number of seconds from 1 to 600',
    ]);
  });

  it('reads the cache bound in whole MiB, within its range', () => {
    expect(parseConfig({ PORTAL_CACHE_MAX_MB: '1' }).portal.cacheMaxBytes).toBe(1_048_576);
    expect(parseConfig({ PORTAL_CACHE_MAX_MB: '1024' }).portal.cacheMaxBytes).toBe(1024 * 1_048_576);
    for (const bad of ['0', '1025', '2.5', '']) {
      expect(problemsOf({ PORTAL_CACHE_MAX_MB: bad })).toEqual(['PORTAL_CACHE_MAX_MB: must be a whole number of MiB from 1 to 1024']);
    }
  });

  it('reads the watch settings, with their defaults and ranges', () => {
    const portal = { PORTAL_URL: 'https://portal.example', PORTAL_TOKEN: 'secret', ALLOW_ANYONE: 'true' };
    expect(parseConfig(portal, HEAP).watch).toEqual({ intervalMs: 300_000, limitPerChat: 50, maxRecords: 100, quietHours: undefined, memoryBytes: 30 * MIB });
    // The demo portal moves every minute: looked at every 30 s unless told otherwise.
    expect(parseConfig({}).watch.intervalMs).toBe(30_000);
    expect(parseConfig({ WATCH_INTERVAL_SECONDS: '300' }).watch.intervalMs).toBe(300_000);
    expect(parseConfig({ WATCH_INTERVAL_SECONDS: '60', WATCH_LIMIT_PER_CHAT: '5', WATCH_MAX_RECORDS: '20', QUIET_HOURS: '21-8' }, HEAP).watch).toEqual({
      intervalMs: 60_000,
      limitPerChat: 5,
      maxRecords: 20,
      quietHours: { from: 21, to: 8 },
      memoryBytes: 30 * MIB,
    });
    expect(problemsOf({ WATCH_INTERVAL_SECONDS: '0' })).toEqual(['WATCH_INTERVAL_SECONDS: must be a whole number of seconds from 1 to 86400']);
    for (const bad of ['21', '25-8', '8-8', 'night']) expect(problemsOf({ QUIET_HOURS: bad })).toEqual([expect.stringContaining('QUIET_HOURS: must be two different hours')]);
  });

  it('reads the export settings, their memory a share of the heap limit', () => {
    expect(parseConfig({}, HEAP).export).toEqual({ maxRecords: 1000, concurrency: 2, memoryBytes: 90 * MIB });
    // Memory, not a count of records, bounds what the exports hold: any product of the two is taken.
    expect(parseConfig({ EXPORT_MAX_RECORDS: '2000', EXPORT_CONCURRENCY: '4' }, HEAP).export).toEqual({ maxRecords: 2000, concurrency: 4, memoryBytes: 90 * MIB });
    expect(parseConfig({}, 1024 * MIB).export.memoryBytes).toBe(384 * MIB);
    expect(problemsOf({ EXPORT_MAX_RECORDS: '10000' })).toEqual(['EXPORT_MAX_RECORDS: must be a whole number of records from 1 to 2000']);
    expect(problemsOf({ EXPORT_CONCURRENCY: '5' })).toEqual(['EXPORT_CONCURRENCY: must be a whole number of exports from 1 to 4']);
  });

  it('refuses to start when one export’s share of the heap cannot hold a single answer at PORTAL_MAX_BODY_BYTES', () => {
    // 90 MiB ÷ 4 = 22.5 MiB per export; an 8 MiB answer takes 24 MiB parsed.
    expect(problemsOf({ EXPORT_CONCURRENCY: '4', PORTAL_MAX_BODY_BYTES: String(8 * MIB) })).toEqual([
      'EXPORT_CONCURRENCY × PORTAL_MAX_BODY_BYTES: each of 4 exports at once may hold 22.5 MB (the exports’ 90 MB of the 240 MB heap, shared among them), ' +
        'less than one answer of 8 MB takes parsed (24 MB); lower one of them, or give node a larger --max-old-space-size',
    ]);
    expect(problemsOf({ EXPORT_CONCURRENCY: '2', PORTAL_MAX_BODY_BYTES: String(8 * MIB) })).toEqual([]);
    expect(problemsOf({ EXPORT_CONCURRENCY: '4', PORTAL_MAX_BODY_BYTES: String(8 * MIB) }, 512 * MIB)).toEqual([]);
    // The heap node gives by default on a large machine takes the largest answers allowed.
    expect(problemsOf({ EXPORT_CONCURRENCY: '4', PORTAL_MAX_BODY_BYTES: String(64 * MIB) }, 4096 * MIB)).toEqual([]);
  });

  it('switches the store to PostgreSQL with DATABASE_URL, with a pool size and a leader lease', () => {
    expect(parseConfig({}).database).toBeUndefined();
    expect(parseConfig({}).leaderLeaseMs).toBe(15_000);
    expect(parseConfig({ DATABASE_URL: 'postgres://bot:pw@db:5432/bot?sslmode=require' }).database).toEqual({
      url: 'postgres://bot:pw@db:5432/bot?sslmode=require',
      poolSize: 10,
    });
    expect(parseConfig({ DATABASE_URL: 'postgresql://db/bot', DATABASE_POOL_SIZE: '25', LEADER_LEASE_SECONDS: '5' })).toMatchObject({
      database: { url: 'postgresql://db/bot', poolSize: 25 },
      leaderLeaseMs: 5_000,
    });
    expect(problemsOf({ DATABASE_URL: 'mysql://db/bot' })).toEqual(['DATABASE_URL: must be a postgres:// (or postgresql://) connection URL']);
    expect(problemsOf({ DATABASE_POOL_SIZE: '1' })).toEqual(['DATABASE_POOL_SIZE: must be a whole number of connections from 2 to 100']);
    expect(problemsOf({ LEADER_LEASE_SECONDS: '1' })).toEqual(['LEADER_LEASE_SECONDS: must be a whole number of seconds from 2 to 300']);
  });

  it("takes the console user's language from LANG", () => {
    expect(parseConfig({ LANG: 'ru_RU.UTF-8' }).consoleLanguage).toBe('ru');
    expect(parseConfig({ LANG: 'en_US.UTF-8' }).consoleLanguage).toBe('en');
    expect(parseConfig({ LANG: ' ' }).consoleLanguage).toBeUndefined();
    expect(parseConfig({}).consoleLanguage).toBeUndefined();
  });

  it('switches to a webhook with WEBHOOK_URL, which needs PORT', () => {
    const token = '123456789:AAE-abcdefghijklmnopqrstuvwxyz_0123';
    const config = parseConfig({ BOT_TOKEN: token, WEBHOOK_URL: 'https://bot.example/hook', WEBHOOK_SECRET: 's3cret', PORT: '8080' });
    expect(config.webhook).toEqual({ url: 'https://bot.example/hook', secret: 's3cret' });
    expect(config.port).toBe(8080);
    expect(problemsOf({ BOT_TOKEN: token, WEBHOOK_URL: 'https://bot.example/hook' })).toEqual([expect.stringContaining('PORT')]);
    expect(problemsOf({ BOT_TOKEN: token, WEBHOOK_URL: 'http://bot.example/hook', PORT: '8080' })).toEqual([expect.stringContaining('https')]);
    expect(problemsOf({ PORT: '99999' })).toEqual([expect.stringContaining('PORT')]);
  });

  it('takes the portal token from a file instead', () => {
    const config = parseConfig({ PORTAL_URL: 'https://portal.example', PORTAL_TOKEN_FILE: '/run/secrets/portal', ALLOW_ANYONE: 'true' });
    expect(config.portal).toMatchObject({ kind: 'remote', token: undefined, tokenFile: '/run/secrets/portal' });
  });

  it('wants the portal URL and token together', () => {
    expect(problemsOf({ PORTAL_URL: 'https://portal.example', ALLOW_ANYONE: 'true' })).toEqual([
      expect.stringContaining('PORTAL_TOKEN'),
    ]);
    expect(problemsOf({ PORTAL_TOKEN: 'secret' })).toEqual([expect.stringContaining('PORTAL_URL')]);
  });

  it('reads TELEGRAM_FEATURES: auto unless legacy, anything else named', () => {
    expect(parseConfig({}).telegramFeatures).toBe('auto');
    expect(parseConfig({ TELEGRAM_FEATURES: ' Legacy ' }).telegramFeatures).toBe('legacy');
    expect(() => parseConfig({ TELEGRAM_FEATURES: 'new' })).toThrow(/TELEGRAM_FEATURES: must be auto .* or legacy/);
  });
});
