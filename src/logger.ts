import { pino } from 'pino';
import type { DestinationStream, Level, Logger } from 'pino';

export const REDACTED = '[REDACTED]';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
// Percent-encoding may use either case for its hex digits: %3A and %3a are the same byte.
const percentPattern = (encoded: string): string =>
  escapeRegExp(encoded).replace(/%([0-9A-F])([0-9A-F])/g, (_, high: string, low: string) => `%${caseless(high)}${caseless(low)}`);
const caseless = (digit: string): string => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit);

/**
 * A secret shorter than this is redacted only where it stands as a value: a short database
 * password such as `store` is also a word of log lines ("the store does not answer").
 */
export const MIN_SUBSTRING_SECRET = 12;

/**
 * Where a short secret stands as a value: a URL's password (`:…@`), `key=…` (a query, a
 * connection string), a JSON field's whole value (`":"…"`), a Bearer token.
 */
const VALUE_POSITIONS: readonly (readonly [before: string, after: string])[] = [
  ['(?<=:)', '(?=@)'],
  ['(?<==)', `(?=$|[&;,\\s"'])`],
  ['(?<=":")', '(?=")'],
  ['(?<=Bearer )', `(?=$|[\\s"'])`],
];

/** The forms a secret takes in a line: as written, JSON-escaped and URL-encoded. */
const formsOf = (secret: string): string[] => [
  escapeRegExp(secret),
  escapeRegExp(JSON.stringify(secret).slice(1, -1)),
  percentPattern(encodeURIComponent(secret)),
  percentPattern(encodeURI(secret)),
];

/** Longest first: an alternation takes the first branch that matches at a position. */
const alternation = (forms: Iterable<string>): string => [...new Set(forms)].sort((a, b) => b.length - a.length).join('|');

/**
 * A scrubber replacing each secret with [REDACTED]: as written, URL-encoded (a token inside a
 * query or a path segment) and JSON-escaped (a token inside a log line). A secret of
 * MIN_SUBSTRING_SECRET characters or more is replaced wherever it occurs, a shorter one only
 * where it stands as a value (VALUE_POSITIONS). Empty secrets are ignored; longer secrets are
 * matched first so that one containing another is redacted whole.
 */
export const redactSecrets = (secrets: readonly string[]): ((text: string) => string) => {
  const given = secrets.filter((secret) => secret !== '');
  const long = alternation(given.filter((secret) => secret.length >= MIN_SUBSTRING_SECRET).flatMap(formsOf));
  const short = alternation(given.filter((secret) => secret.length < MIN_SUBSTRING_SECRET).flatMap(formsOf));
  const branches = [...(long ? [long] : []), ...(short ? VALUE_POSITIONS.map(([before, after]) => `${before}(?:${short})${after}`) : [])];
  if (branches.length === 0) return (text) => text;
  const pattern = new RegExp(branches.join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED);
};

type Serialized = Record<string, unknown>;
const isRecord = (value: unknown): value is Serialized => typeof value === 'object' && value !== null;

/** A serialized error without the payload of a failed Telegram call (`on.payload`), here or in nested errors. */
const withoutPayloads = (serialized: unknown): unknown => {
  if (!isRecord(serialized)) return serialized;
  const copy: Serialized = { ...serialized };
  for (const [key, value] of Object.entries(copy)) {
    if (key === 'on' && isRecord(value)) copy.on = Object.fromEntries(Object.entries(value).filter(([field]) => field !== 'payload'));
    else if (Array.isArray(value)) copy[key] = value.map(withoutPayloads);
    else if (isRecord(value) && typeof value.stack === 'string') copy[key] = withoutPayloads(value);
  }
  return copy;
};

/**
 * Errors as pino serializes them, less what a Telegram call sent: a TelegramError's `on.payload`
 * holds users' text and, for setWebhook, the webhook secret. Our Bot API client leaves it out; this
 * catches errors made elsewhere (Telegraf's own client).
 */
export const serializeError = (error: unknown): unknown => withoutPayloads(pino.stdSerializers.err(error as Error));

export type LoggerOptions = {
  level: Level | 'silent';
  /**
   * Values that must never reach a log line: the bot token, the portal token, the webhook secret.
   * A function is asked again for every line, for a secret that changes (a rotated portal token).
   */
  secrets: readonly string[] | (() => readonly string[]);
  /** Where lines go; standard error by default (`standardError`). */
  destination?: DestinationStream;
};

/**
 * Node's own standard error: no thread pool is involved — a file or a terminal is written
 * synchronously; on a pipe, what the reader has no room for waits in memory instead of stopping
 * the event loop. (pino's default destination hands each line to libuv's thread pool, four threads
 * started for the log alone; written synchronously through it, a full non-blocking pipe made it
 * sleep 100 ms on the loop per retry.) The info lines of one turn of the event loop go out as one
 * write at its end (or at LINES_AT_ONCE characters): a lookup's audit line was a write, a system
 * call, of its own. A warning or worse goes at once, with those before it: what explains a crash
 * that ends the process without an exit event (out of memory, SIGKILL) is written. A log sink that
 * fails — its reader gone (EPIPE), the disk of a log file full (ENOSPC) — does not stop the bot:
 * the error is dropped with the lines, there being nowhere left to say so.
 */
const LINES_AT_ONCE = 64 * 1024;
let guarded = false;
let pending = '';
let scheduled = false;
const writePending = () => {
  scheduled = false;
  if (pending === '') return;
  const lines = pending;
  pending = '';
  process.stderr.write(lines);
};
/** pino's lines begin `{"level":NN`: 40 and up is a warning or worse. */
const LEVEL_DIGIT = '{"level":'.length;
const urgent = (line: string): boolean => line.charCodeAt(LEVEL_DIGIT) >= 0x34;
const stderrLines: DestinationStream = {
  write(line: string) {
    pending += line;
    if (pending.length >= LINES_AT_ONCE || urgent(line)) writePending();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(writePending);
    }
  },
};
export const standardError = (): DestinationStream => {
  if (!guarded) {
    guarded = true;
    process.stderr.on('error', () => {});
    // An exit in the middle of a turn (process.exit) still writes what the turn logged.
    process.on('exit', writePending);
  }
  return stderrLines;
};

/**
 * Resolves once every line written to standard error so far has left the process (a pipe whose
 * reader lags holds them in memory), or after `timeoutMs`: for just before `process.exit`, which
 * would drop them.
 */
export const flushStandardError = (timeoutMs: number): Promise<void> =>
  new Promise<void>((resolve) => {
    standardError(); // a failing sink answers the write below with an error, not a crash
    writePending();
    const timer = setTimeout(resolve, timeoutMs);
    // Writes complete in order: an empty one's callback runs once those before it are written.
    process.stderr.write('', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Node's process warnings (a dependency calling a deprecated API, say) as log lines, once each
 * (by code, else by text), in place of the plain-text lines Node writes to standard error, which
 * would break the JSON log. A deprecation is `info`: nothing an operator can act on; others `warn`.
 */
export const logProcessWarnings = (logger: Pick<Logger, 'info' | 'warn'>, emitter: NodeJS.EventEmitter = process): void => {
  // Node writes them from a 'warning' listener of its own: this one takes its place.
  emitter.removeAllListeners('warning');
  const seen = new Set<string>();
  emitter.on('warning', (warning: Error & { code?: unknown }) => {
    const code = typeof warning.code === 'string' ? warning.code : undefined;
    const key = code ?? `${warning.name}: ${warning.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    const fields = { warning: { name: warning.name, ...(code === undefined ? {} : { code }), message: warning.message } };
    if (warning.name === 'DeprecationWarning') logger.info(fields, 'process warning');
    else logger.warn(fields, 'process warning');
  });
};

/**
 * A pino logger whose every serialized line, child loggers' included, is scrubbed of the secrets
 * just before it is written: messages, bindings, error messages and stacks alike.
 */
export const createLogger = ({ level, secrets, destination = standardError() }: LoggerOptions): Logger => {
  const current = typeof secrets === 'function' ? secrets : () => secrets;
  // The scrubber is rebuilt only when a secret changes; a copy, since the caller's list may be mutated.
  let known: readonly string[] = [];
  let scrub = redactSecrets(known);
  const streamWrite = (line: string) => {
    const list = current();
    if (!sameSecrets(list, known)) {
      known = [...list];
      scrub = redactSecrets(known);
    }
    return scrub(line);
  };
  return pino({ level, hooks: { streamWrite }, serializers: { err: serializeError } }, destination);
};

const sameSecrets = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k += 1) if (a[k] !== b[k]) return false;
  return true;
};
