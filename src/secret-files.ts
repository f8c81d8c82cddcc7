import { readFileSync } from 'node:fs';

// Secrets as files (Docker secrets, /run/secrets/…) rather than environment variables, which
// `docker inspect` shows: BOT_TOKEN_FILE and DATABASE_URL_FILE are read once, at start, into the
// variables they stand for. (PORTAL_TOKEN_FILE is re-read on a 401: src/portal/resilience/.)

/** Each *_FILE variable, the variable its file holds, and what that is, for messages. */
const SECRET_FILES = [
  { variable: 'BOT_TOKEN_FILE', holds: 'BOT_TOKEN', what: 'bot token' },
  { variable: 'DATABASE_URL_FILE', holds: 'DATABASE_URL', what: 'database URL' },
] as const;

const READ_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** Why a file could not be read, in words. */
export const readFailure = (error: unknown): string => {
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return (code && READ_REASONS[code]) ?? (error instanceof Error ? error.message : String(error));
};

/** A *_FILE variable names a file that cannot be read or is empty: names the variable, the file and what to do. */
export class SecretFileError extends Error {
  readonly code = 'ERR_SECRET_FILE';
  readonly variable: string;
  readonly path: string;

  constructor(variable: string, what: string, path: string, reason: string, options?: ErrorOptions) {
    super(`cannot read the ${what} file ${path} (${variable}): ${reason}. Put the ${what} there, or point ${variable} at the file that has it.`, options);
    this.name = 'SecretFileError';
    this.variable = variable;
    this.path = path;
  }
}

/**
 * The environment with each secret read from the file its *_FILE variable names; the file wins
 * over the variable, as PORTAL_TOKEN_FILE's does. Throws SecretFileError.
 */
export const withSecretFiles = (env: Record<string, string | undefined>, read = (path: string) => readFileSync(path, 'utf8')): Record<string, string | undefined> => {
  const result = { ...env };
  for (const { variable, holds, what } of SECRET_FILES) {
    const path = env[variable]?.trim();
    if (!path) continue;
    let text: string;
    try {
      text = read(path);
    } catch (error) {
      throw new SecretFileError(variable, what, path, readFailure(error), { cause: error });
    }
    const value = text.trim();
    if (!value) throw new SecretFileError(variable, what, path, 'it is empty');
    result[holds] = value;
  }
  return result;
};
