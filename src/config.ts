import { z } from 'zod';
import { isLocale, type Locale } from './i18n.ts';
import { isPageSize, PAGE_SIZES, type PageSize } from './portal/query.ts';

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

const envSchema = z.object({
  BOT_TOKEN: optionalText.refine(
    (value) => value === undefined || /^\d+:[\w-]{20,}$/.test(value),
    'must look like 123456789:AA… (the token BotFather gives)',
  ),
  TELEGRAM_API_ROOT: url('a Bot API server').transform((value) => value ?? 'https://api.telegram.org'),
  PORTAL_URL: url('the portal').transform((value) => value?.replace(/\/+$/, '')),
  PORTAL_TOKEN: optionalText,
  PORTAL_TIMEOUT_MS: z
    .string()
    .default('10000')
    .transform(Number)
    .pipe(z.number().int('must be a whole number of milliseconds').min(100).max(120_000)),
  ALLOWED_USER_IDS: idList,
  ALLOWED_CHAT_IDS: idList,
  ALLOW_ANYONE: flag,
  DEFAULT_LANGUAGE: z
    .string()
    .default('ru')
    .transform((value) => value.trim().toLowerCase())
    .refine(isLocale, 'must be ru or en'),
  PAGE_SIZE: z
    .string()
    .default('5')
    .transform(Number)
    .refine((value): value is PageSize => isPageSize(value), `must be one of ${PAGE_SIZES.join(', ')} (what the portal accepts)`),
  FLOOD_LIMIT_PER_MINUTE: z
    .string()
    .default('30')
    .transform(Number)
    .pipe(z.number().int('must be a whole number').min(1).max(10_000)),
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
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as Europe/Moscow'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
});

export type Config = {
  botToken: string | undefined;
  telegramApiRoot: string;
  /** `demo`: no portal configured, the embedded demo portal answers. */
  portal: { kind: 'remote'; url: string; token: string; timeoutMs: number } | { kind: 'demo'; timeoutMs: number };
  access: { userIds: ReadonlySet<number>; chatIds: ReadonlySet<number>; anyone: boolean };
  defaultLanguage: Locale;
  pageSize: PageSize;
  /** Queries a user may send in a minute before being asked to slow down. */
  floodLimitPerMinute: number;
  /** Where the store (settings, button state) lives; created on first start. */
  dataDir: string;
  /** The time zone of the people using the bot, for "updated 14:05". */
  timeZone: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
};

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Pure: the environment in, a Config or a ConfigError listing every problem out. */
export const parseConfig = (env: Record<string, string | undefined>): Config => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.PORTAL_URL && !e.PORTAL_TOKEN) problems.push('PORTAL_TOKEN: required when PORTAL_URL is set');
  if (!e.PORTAL_URL && e.PORTAL_TOKEN) problems.push('PORTAL_URL: required when PORTAL_TOKEN is set');
  const listsEmpty = e.ALLOWED_USER_IDS.size === 0 && e.ALLOWED_CHAT_IDS.size === 0;
  if (e.PORTAL_URL && listsEmpty && !e.ALLOW_ANYONE) {
    problems.push(
      'ALLOWED_USER_IDS / ALLOWED_CHAT_IDS: both are empty while a real portal is configured; ' +
        'list who may use the bot, or set ALLOW_ANYONE=true to open it to everyone',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    botToken: e.BOT_TOKEN,
    telegramApiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, ''),
    portal:
      e.PORTAL_URL && e.PORTAL_TOKEN
        ? { kind: 'remote', url: e.PORTAL_URL, token: e.PORTAL_TOKEN, timeoutMs: e.PORTAL_TIMEOUT_MS }
        : { kind: 'demo', timeoutMs: e.PORTAL_TIMEOUT_MS },
    // The demo portal holds no real data: anyone may use it.
    access: { userIds: e.ALLOWED_USER_IDS, chatIds: e.ALLOWED_CHAT_IDS, anyone: e.ALLOW_ANYONE || !e.PORTAL_URL },
    defaultLanguage: e.DEFAULT_LANGUAGE as Locale,
    pageSize: e.PAGE_SIZE as PageSize,
    floodLimitPerMinute: e.FLOOD_LIMIT_PER_MINUTE,
    dataDir: e.DATA_DIR,
    timeZone: e.TIME_ZONE,
    logLevel: e.LOG_LEVEL,
  };
};
