import { StoreOpenError, StoreUnavailableError } from '../errors.ts';

// How failures of PostgreSQL reach the bot: a server that does not answer (down, restarting,
// out of connections) is "unavailable", worth another try later; a wrong password, a missing
// database or a missing right is the operator's to fix, and the bot refuses to start.

/** Node's own codes for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html) of a server going away or starting. */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03']);

/** node-postgres and its pool say these in words, with no code. */
const LOST_CONNECTION = /Connection terminated|timeout exceeded when trying to connect|is not queryable/i;

const codeOf = (error: Error): string | undefined => ('code' in error && typeof error.code === 'string' ? error.code : undefined);

/** True when `error` says the server could not be reached or the connection was lost. */
export const isConnectionFailure = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  // Node reports a failure to reach each address of a name (IPv6 and IPv4) as one AggregateError.
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  const code = codeOf(error);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code) || SERVER_GONE.has(code)) return true;
    // Class 08: connection exception; class 53: insufficient resources (too many connections, disk full).
    if (/^(08|53)[0-9A-Z]{3}$/.test(code)) return true;
  }
  return LOST_CONNECTION.test(error.message) || (error.cause !== undefined && isConnectionFailure(error.cause));
};

/**
 * SQLSTATEs of a statement the server cancelled for time: a statement timeout (57014, also an
 * administrator's cancel) or a lock timeout (55P03). Busy, not broken: the store does not answer.
 */
const TIMED_OUT = new Set(['57014', '55P03']);

/** True when `error` says the server took too long: a timeout of the server's, or node-postgres's own. */
export const isTimeout = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  return (code !== undefined && TIMED_OUT.has(code)) || error.message === 'Query read timeout';
};

/** What went wrong, in words: Node's AggregateError (one failure per address) may have no message of its own. */
export const failureReason = (error: unknown): string => {
  if (error instanceof AggregateError && error.message === '') return error.errors.map(failureReason).join('; ');
  return error instanceof Error ? error.message || (codeOf(error) ?? error.name) : String(error);
};

/** A StoreUnavailableError naming the database for a connection failure or a timeout; any other error as it was. */
export const toPostgresUnavailable = (error: unknown, database: string): unknown =>
  isConnectionFailure(error) || isTimeout(error) ? new StoreUnavailableError(database, failureReason(error), { cause: error }) : error;

/** What the operator must fix, by SQLSTATE: another try would meet the same answer. */
const FINAL_HINTS: ReadonlyMap<string, string> = new Map([
  ['28P01', 'Check the user name and password in DATABASE_URL.'],
  ['28000', 'Check the user name in DATABASE_URL, and that the server (pg_hba.conf) lets it connect from here.'],
  ['3D000', 'Create the database, or fix its name in DATABASE_URL.'],
  ['42501', "Grant DATABASE_URL's user the rights to connect and to create tables in the database (the bot migrates its schema at start)."],
]);

/** A StoreOpenError with what to do for a failure no retry mends; undefined for any other. */
export const finalOpenError = (error: unknown, database: string): StoreOpenError | undefined => {
  if (!(error instanceof Error)) return undefined;
  const code = codeOf(error);
  const hint = code === undefined ? undefined : FINAL_HINTS.get(code);
  return hint === undefined ? undefined : new StoreOpenError(database, failureReason(error), hint, { cause: error });
};

/** The same methods, async, each turning a connection failure or a timeout into a StoreUnavailableError naming the database. */
export const withPostgresErrors = <T extends object>(target: T, database: string): T => {
  const guarded: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(target)) {
    guarded[name] =
      typeof method === 'function'
        ? async (...args: unknown[]): Promise<unknown> => {
            try {
              return await method(...args);
            } catch (error) {
              throw toPostgresUnavailable(error, database);
            }
          }
        : method;
  }
  return guarded as T;
};
