// Failures of the store, each naming its file: what the operator must look at.

/** The store cannot be opened (or migrated) at start: the bot refuses to run, saying what to do. */
export class StoreOpenError extends Error {
  readonly code = 'ERR_STORE_OPEN';
  readonly path: string;
  readonly hint: string;

  constructor(path: string, reason: string, hint: string, options?: ErrorOptions) {
    super(`cannot open the store ${path}: ${reason}. ${hint}`, options);
    this.name = 'StoreOpenError';
    this.path = path;
    this.hint = hint;
  }
}

/** A write failed while the bot runs (disk full, read-only, I/O error): the user may try later. */
export class StoreUnavailableError extends Error {
  readonly code = 'ERR_STORE_UNAVAILABLE';
  readonly path: string;

  constructor(path: string, reason: string, options?: ErrorOptions) {
    super(`cannot write to the store ${path}: ${reason}`, options);
    this.name = 'StoreUnavailableError';
    this.path = path;
  }
}

// SQLite's primary result codes (https://sqlite.org/rescode.html); node:sqlite may report an
// extended code, whose low byte is the primary one.
const SQLITE_BUSY = 5;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_NOTADB = 26;

type SqliteError = Error & { code: 'ERR_SQLITE_ERROR'; errcode: number; errstr: string };

const isSqliteError = (error: unknown): error is SqliteError =>
  error instanceof Error && 'code' in error && error.code === 'ERR_SQLITE_ERROR' && 'errcode' in error && typeof error.errcode === 'number';

const primaryCode = (error: SqliteError): number => error.errcode & 0xff;

/** Failures of the file or the disk, which another try later may not meet. */
const UNAVAILABLE = new Set([SQLITE_BUSY, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN]);

/** A StoreUnavailableError for a failure of the disk or the file; any other error as it was. */
export const toStoreUnavailable = (error: unknown, path: string): unknown =>
  isSqliteError(error) && UNAVAILABLE.has(primaryCode(error)) ? new StoreUnavailableError(path, error.message, { cause: error }) : error;

/** What to do with a file that is not a database, or a damaged one. */
export const DAMAGED_HINT = 'Move it away to start with an empty store, or point DATA_DIR elsewhere.';

const OPEN_HINTS: ReadonlyMap<number, string> = new Map([
  [SQLITE_NOTADB, DAMAGED_HINT],
  [SQLITE_CORRUPT, DAMAGED_HINT],
  [SQLITE_CANTOPEN, 'Check that it is a file the bot can read and write (not a directory), or point DATA_DIR elsewhere.'],
  [SQLITE_FULL, 'Free some disk space, or point DATA_DIR elsewhere.'],
  [SQLITE_READONLY, 'Make it writable, or point DATA_DIR elsewhere.'],
  [SQLITE_IOERR, 'Check the disk, or point DATA_DIR elsewhere.'],
  [SQLITE_BUSY, 'Another process holds it locked: stop that process, or point DATA_DIR elsewhere.'],
]);

/** A StoreOpenError for SQLite's failure to open or set up `path`; any other error as it was. */
export const toStoreOpenError = (error: unknown, path: string): unknown =>
  isSqliteError(error)
    ? new StoreOpenError(path, error.message, OPEN_HINTS.get(primaryCode(error)) ?? 'Check the file, or point DATA_DIR elsewhere.', { cause: error })
    : error;

const DIRECTORY_REASONS: Readonly<Record<string, string>> = {
  EEXIST: 'not a directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'the disk is full',
};

/** A StoreOpenError for a data directory that could not be created; any other error as it was. */
export const toDataDirError = (error: unknown, dataDir: string): unknown => {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code === undefined) return error;
  return new StoreOpenError(dataDir, DIRECTORY_REASONS[code] ?? code, 'Point DATA_DIR at a directory the bot can write to.', { cause: error });
};

/** The database was written by a newer version of the bot, whose schema this one does not know. */
export class StoreVersionError extends Error {
  readonly code = 'ERR_STORE_VERSION';
  readonly found: number;
  readonly known: number;

  /** `elsewhere`: how to start on an empty store instead, in the backend's terms. */
  constructor(found: number, known: number, elsewhere = 'use another data directory (DATA_DIR)') {
    super(
      `the database has schema version ${found}, but this version of the bot knows only up to ${known}: ` +
        `it was written by a newer version. Run that version, or ${elsewhere}; ` +
        'the database was left unchanged.',
    );
    this.name = 'StoreVersionError';
    this.found = found;
    this.known = known;
  }
}
