import { readFileSync } from 'node:fs';
import { readFailure } from '../../secret-files.ts';

export type TokenSource = {
  current(): string;
  /** Reads the token again (from the file, when there is one) and makes it current. */
  reload(): string;
};

/** PORTAL_TOKEN_FILE cannot be read, or holds no token: names the file and what to do. */
export class TokenFileError extends Error {
  readonly code = 'ERR_TOKEN_FILE';
  readonly path: string;

  constructor(path: string, reason: string, hint: string, options?: ErrorOptions) {
    super(`cannot read the portal token file ${path} (PORTAL_TOKEN_FILE): ${reason}. ${hint}`, options);
    this.name = 'TokenFileError';
    this.path = path;
  }
}

const MOVED_HINT = 'Put the token there, or point PORTAL_TOKEN_FILE at the file that has it.';

const readTokenFile = (path: string): string => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TokenFileError(path, readFailure(error), MOVED_HINT, { cause: error });
  }
  const value = text.trim();
  if (!value) throw new TokenFileError(path, 'it is empty', 'Put the token there.');
  return value;
};

/**
 * The portal token, fixed or read from a file (PORTAL_TOKEN_FILE) that a sidecar may rewrite.
 * The file wins when both are given. The file is read at start and on reload() only.
 */
export const createTokenSource = ({ token, tokenFile }: { token?: string; tokenFile?: string }): TokenSource => {
  if (!tokenFile) {
    if (!token) throw new Error('a portal token or a token file is required');
    return { current: () => token, reload: () => token };
  }
  let value = readTokenFile(tokenFile);
  return {
    current: () => value,
    reload: () => (value = readTokenFile(tokenFile)),
  };
};
