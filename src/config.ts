import { getHeapStatistics } from 'node:v8';
import { z } from 'zod';
import { LOCALES } from './i18n.ts';
import { EXPORT_HEAP_PER_ANSWER_BYTE, EXPORT_HEAP_SHARE, WATCH_HEAP_SHARE } from './memory-budget.ts';
import { PAGE_SIZES } from './query.ts';
import { zoneOf } from './zone.ts';

/** TELEGRAM_FEATURES: auto uses what the Bot API server has of rich messages and the newer buttons; legacy never does. */
export const TELEGRAM_FEATURE_MODES = ['auto', 'legacy'] as const;
export type TelegramFeatures = (typeof TELEGRAM_FEATURE_MODES)[number];

// The environment, validated once at start. Every bad value is reported by name.

const idList = z
  .string()
  .default('')
  .transform((raw, ctx) => {
    const ids = raw.split(',').map((part) => part.trim()).filter(Boolean);
    const bad = ids.filter((id) => !/^-?\d{1,20}$/.test(id));
    if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not Telegram ids: ${bad.join(', ')}` });
    return new Set(ids.map(Number));
  });

// z.coerce.boolean() would read "false" as true: accept only the words people write.
const flag = z
  .string()
  .default('false')
  .transform((raw, ctx) => {
    const value = raw.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(value)) return true;
    if (['false', '0', 'no', ''].includes(value)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be true or false' });
    return z.NEVER;
  });

const optionalText = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

const url = (what: string) =>
  optionalText.refine((value) => value === undefined || /^https?:\/\/[^\s]+$/.test(value), `must be an http(s) URL of ${what}`);

/** A number from the environment with its default and range ("", words and out-of-range refused). */
const numberIn = (min: number, max: number, what: string, whole: boolean) => {
  const range = `${whole ? 'a whole number of ' : ''}${what} from ${min} to ${max}`;
  const number = z.number(`must be ${range}`).min(min, `must be ${range}`).max(max, `must be ${range}`);
  return z
    .string()
    .transform((raw) => (raw.trim() === '' ? Number.NaN : Number(raw)))
    .pipe(whole ? number.int(`must be ${range}`) : number);
};
const numberVar = (fallback: number, min: number, max: number, what: string, whole = true) =>
  z.string().default(String(fallback)).pipe(numberIn(min, max, what, whole));
/** A number whose default depends on other settings: undefined when unset. */
const optionalNumberVar = (min: number, max: number, what: string) => numberIn(min, max, what, true).optional();

const envSchema = z.object({
  BOT_TOKEN: optionalText.refine(
    (value) => value === undefined || /^\d+:[\w-]{20,}$/.test(value),
    'must look like 123456789:AA… (the token BotFather gives)',
  ),
  // Read into BOT_TOKEN and DATABASE_URL before this schema sees them (src/secret-files.ts).
  BOT_TOKEN_FILE: optionalText,
  DATABASE_URL_FILE: optionalText,
  TELEGRAM_API_ROOT: url('a Bot API server').transform((value) => value ?? 'https://api.telegram.org'),
  PORTAL_URL: url('the portal').transform((value) => value?.replace(/\/+$/, '')),
  PORTAL_TOKEN: optionalText,
  PORTAL_TOKEN_FILE: optionalText,
  PORTAL_CACHE_SECONDS: numberVar(30, 0, 3600, 'seconds'),
  PORTAL_CACHE_MAX_MB: numberVar(32, 1, 1024, 'MiB'),
  PORTAL_CIRCUIT_FAILURES: numberVar(5, 1, 1000, 'failures'),
  PORTAL_CIRCUIT_OPEN_SECONDS: numberVar(30, 0.1, 3600, 'seconds', false),
  CONCURRENCY: numberVar(50, 1, 1000, 'updates'),
  SHUTDOWN_GRACE_MS: numberVar(7_000, 0, 120_000, 'milliseconds'),
  PORTAL_TIMEOUT_MS: numberVar(10_000, 100, 120_000, 'milliseconds'),
  PORTAL_MAX_BODY_BYTES: numberVar(4 * 1024 * 1024, 65_536, 64 * 1024 * 1024, 'bytes'),
  HANDLER_DEADLINE_SECONDS: numberVar(60, 1, 600, 'seconds'),
  ALLOWED_USER_IDS: idList,
  ALLOWED_CHAT_IDS: idList,
  ALLOW_ANYONE: flag,
  DEFAULT_LANGUAGE: z
    .string()
    .default('ru')
    .transform((value) => value.trim().toLowerCase())
    .pipe(z.enum(LOCALES, 'must be ru or en')),
  PAGE_SIZE: z
    .string()
    .default('5')
    .transform(Number)
    .pipe(z.union(PAGE_SIZES.map((size) => z.literal(size)), `must be one of ${PAGE_SIZES.join(', ')} (what the portal accepts)`)),
  FLOOD_LIMIT_PER_MINUTE: numberVar(30, 1, 10_000, 'queries'),
  WEBHOOK_URL: optionalText.refine((value) => value === undefined || /^https:\/\/[^\s]+$/.test(value), 'must be an https:// URL (Telegram only calls https)'),
  WEBHOOK_SECRET: optionalText.refine(
    (value) => value === undefined || /^[A-Za-z0-9_-]{1,256}$/.test(value),
    'must be 1–256 characters of A–Z, a–z, 0–9, _ and -',
  ),
  PORT: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a TCP port number')
      .transform(Number)
      .pipe(z.number().max(65_535, 'must be a TCP port number'))
      .optional(),
  ),
  DATA_DIR: z
    .string()
    .default('data')
    .transform((value) => value.trim())
    .pipe(z.string().min(1, 'must name a directory')),
  TIME_ZONE: z
    .string()
    .default('Europe/Moscow')
    .refine((zone) => {
      try {
        zoneOf(zone);
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Europe/Moscow'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  WATCH_INTERVAL_SECONDS: optionalNumberVar(1, 86_400, 'seconds'),
  WATCH_LIMIT_PER_CHAT: numberVar(50, 1, 1000, 'watches'),
  WATCH_MAX_RECORDS: numberVar(100, 1, 1000, 'records'),
  EXPORT_MAX_RECORDS: numberVar(1000, 1, 2000, 'records'),
  EXPORT_CONCURRENCY: numberVar(2, 1, 4, 'exports'),
  QUIET_HOURS: optionalText.transform((value, ctx) => {
    if (value === undefined) return undefined;
    const match = /^(\d{1,2})-(\d{1,2})$/.exec(value);
    const [from, to] = [Number(match?.[1]), Number(match?.[2])];
    if (!match || from > 23 || to > 23 || from === to) {
      ctx.addIssue({ code: 'custom', message: 'must be two different hours 0–23 as FROM-TO, e.g. 21-8 (in TIME_ZONE)' });
      return z.NEVER;
    }
    return { from, to };
  }),
  // The terminal's locale ("ru_RU.UTF-8"): the console chat's user speaks its language.
  DATABASE_URL: optionalText.refine(
    (value) => value === undefined || /^postgres(ql)?:\/\/[^\s]+$/.test(value),
    'must be a postgres:// (or postgresql://) connection URL',
  ),
  // Two at least: a lock held while the webhook is set takes one connection, its queries another.
  DATABASE_POOL_SIZE: numberVar(10, 2, 100, 'connections'),
  LEADER_LEASE_SECONDS: numberVar(15, 2, 300, 'seconds'),
  LANG: optionalText.transform((value) => value?.slice(0, 2).toLowerCase() || undefined),
  // Issue 30 (pasted numbers, statuses by name): the operator's names of status codes, a JSON or
  // YAML file read and checked at start (src/status-names.ts).
  STATUS_NAMES_FILE: optionalText,
  // Admins (issue 34): they use the bot and manage who else may, with /allow, /deny, /users and /stats.
  ADMIN_USER_IDS: idList.refine((ids) => [...ids].every((id) => id > 0), "must be users' ids (positive numbers); a group's id is negative"),
  // Issue 31, records as Telegram draws them now: rich messages and the newer buttons where the Bot API server has them.
  TELEGRAM_FEATURES: z
    .string()
    .default('auto')
    .transform((value) => value.trim().toLowerCase())
    .pipe(z.enum(TELEGRAM_FEATURE_MODES, 'must be auto (rich messages and newer buttons where the Bot API server has them) or legacy (never)')),
  // Issue 32, guest mode: how long a guest card of one record is kept up to date (edited when a poll sees it change).
  GUEST_CARD_LIVE_DAYS: numberVar(7, 0, 90, 'days'),
});

type Env = z.output<typeof envSchema>;

/** Every environment variable the bot reads. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** The bot's configuration, as `parseConfig` builds it from the environment. */
export type Config = ReturnType<typeof toConfig>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const MEGABYTE = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / MEGABYTE) * 10) / 10} MB`;

/** A variable by name, and by the file it was read from (BOT_TOKEN_FILE, DATABASE_URL_FILE). */
const nameOf = (variable: string, env: Record<string, string | undefined>): string =>
  env[`${variable}_FILE`]?.trim() && (variable === 'BOT_TOKEN' || variable === 'DATABASE_URL') ? `${variable} (read from ${variable}_FILE)` : variable;

/**
 * The environment in, a Config or a ConfigError listing every problem out. `heapLimitBytes` is the
 * heap the bot may grow to (V8's limit, from --max-old-space-size): what exports and watch polls
 * may hold is a share of it.
 */
export const parseConfig = (env: Record<string, string | undefined>, heapLimitBytes: number = getHeapStatistics().heap_size_limit): Config => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${nameOf(issue.path.join('.'), env)}: ${issue.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const hasToken = Boolean(e.PORTAL_TOKEN || e.PORTAL_TOKEN_FILE);
  if (e.PORTAL_URL && !hasToken) problems.push('PORTAL_TOKEN: required when PORTAL_URL is set (or PORTAL_TOKEN_FILE)');
  if (!e.PORTAL_URL && hasToken) problems.push('PORTAL_URL: required when PORTAL_TOKEN or PORTAL_TOKEN_FILE is set');
  const listsEmpty = e.ALLOWED_USER_IDS.size === 0 && e.ALLOWED_CHAT_IDS.size === 0 && e.ADMIN_USER_IDS.size === 0;
  if (e.PORTAL_URL && listsEmpty && !e.ALLOW_ANYONE) {
    problems.push(
      'ADMIN_USER_IDS / ALLOWED_USER_IDS / ALLOWED_CHAT_IDS: all are empty while a real portal is configured; ' +
        'name an admin (who then allows others from the chat), list who may use the bot, or set ALLOW_ANYONE=true to open it to everyone',
    );
  }
  if (e.WEBHOOK_URL && e.PORT === undefined) problems.push('PORT: required with WEBHOOK_URL (where Telegram’s requests arrive)');
  if (e.WEBHOOK_URL && !e.BOT_TOKEN) problems.push('BOT_TOKEN: required with WEBHOOK_URL (or BOT_TOKEN_FILE)');
  // Each export may hold an equal share of the exports' part of the heap: at least one page of the largest answer read.
  const perExport = (heapLimitBytes * EXPORT_HEAP_SHARE) / e.EXPORT_CONCURRENCY;
  const page = e.PORTAL_MAX_BODY_BYTES * EXPORT_HEAP_PER_ANSWER_BYTE;
  if (perExport < page) {
    problems.push(
      `EXPORT_CONCURRENCY × PORTAL_MAX_BODY_BYTES: each of ${e.EXPORT_CONCURRENCY} exports at once may hold ${megabytes(perExport)} ` +
        `(the exports’ ${megabytes(heapLimitBytes * EXPORT_HEAP_SHARE)} of the ${megabytes(heapLimitBytes)} heap, shared among them), less than one answer of ${megabytes(e.PORTAL_MAX_BODY_BYTES)} ` +
        `takes parsed (${megabytes(page)}); lower one of them, or give node a larger --max-old-space-size`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return toConfig(e, heapLimitBytes);
};

/** The checked environment as the bot uses it. */
const toConfig = (e: Env, heapLimitBytes: number) => ({
  botToken: e.BOT_TOKEN,
  telegramApiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, ''),
  portal: {
    ...(e.PORTAL_URL
      ? { kind: 'remote' as const, url: e.PORTAL_URL, token: e.PORTAL_TOKEN, tokenFile: e.PORTAL_TOKEN_FILE }
      : { kind: 'demo' as const }),
    timeoutMs: e.PORTAL_TIMEOUT_MS,
    maxBodyBytes: e.PORTAL_MAX_BODY_BYTES,
    cacheTtlMs: e.PORTAL_CACHE_SECONDS * 1000,
    /** Counted as the bytes of the portal answers the kept pages came from. */
    cacheMaxBytes: e.PORTAL_CACHE_MAX_MB * 1024 * 1024,
    circuit: { failureThreshold: e.PORTAL_CIRCUIT_FAILURES, openMs: Math.round(e.PORTAL_CIRCUIT_OPEN_SECONDS * 1000) },
  },
  concurrency: e.CONCURRENCY,
  shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
  handlerDeadlineMs: e.HANDLER_DEADLINE_SECONDS * 1000,
  // The demo portal holds no real data: anyone may use it.
  access: { userIds: e.ALLOWED_USER_IDS, chatIds: e.ALLOWED_CHAT_IDS, anyone: e.ALLOW_ANYONE || !e.PORTAL_URL, adminIds: e.ADMIN_USER_IDS },
  defaultLanguage: e.DEFAULT_LANGUAGE,
  pageSize: e.PAGE_SIZE,
  floodLimitPerMinute: e.FLOOD_LIMIT_PER_MINUTE,
  webhook: e.WEBHOOK_URL ? { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET } : undefined,
  port: e.PORT,
  dataDir: e.DATA_DIR,
  /** PostgreSQL shared by replicas; unset: the sqlite file in DATA_DIR. */
  database: e.DATABASE_URL ? { url: e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE } : undefined,
  /** How long the polling replica's lease lasts unrenewed: a standby takes over after it. */
  leaderLeaseMs: e.LEADER_LEASE_SECONDS * 1000,
  timeZone: e.TIME_ZONE,
  logLevel: e.LOG_LEVEL,
  watch: {
    // The demo portal moves records every minute: it is looked at more often, so that a watch
    // tried on a fresh machine tells something within a couple of minutes.
    intervalMs: (e.WATCH_INTERVAL_SECONDS ?? (e.PORTAL_URL ? 300 : 30)) * 1000,
    limitPerChat: e.WATCH_LIMIT_PER_CHAT,
    maxRecords: e.WATCH_MAX_RECORDS,
    /** Hours [from, to) in TIME_ZONE when notifications are sent without sound; may wrap midnight. */
    quietHours: e.QUIET_HOURS,
    /** What the records of watch polls (and of /watch's first reading) may take of the heap together. */
    memoryBytes: Math.floor(heapLimitBytes * WATCH_HEAP_SHARE),
  },
  export: {
    /** The most records one Excel file holds: past it, the first ones and a note. */
    maxRecords: e.EXPORT_MAX_RECORDS,
    /** Exports running at once across all users; the next wait in line. */
    concurrency: e.EXPORT_CONCURRENCY,
    /** What the records of all running exports may take of the heap together; each an equal share. */
    memoryBytes: Math.floor(heapLimitBytes * EXPORT_HEAP_SHARE),
  },
  /** Telegram's language_code for the console chat's user, from LANG; undefined lets DEFAULT_LANGUAGE decide. */
  consoleLanguage: e.LANG,
  /** The operator's names of status codes (src/status-names.ts reads it at start); unset: codes alone. */
  statusNamesFile: e.STATUS_NAMES_FILE,
  /** auto: rich messages and the newer buttons where the Bot API server has them; legacy: never. */
  telegramFeatures: e.TELEGRAM_FEATURES,
  /** A guest card of one record is edited when a poll sees the record change, this long after it was sent; 0: never. */
  guestCardLiveMs: e.GUEST_CARD_LIVE_DAYS * 86_400_000,
});
