import { readFileSync } from 'node:fs';

export type TokenSource = {
  current(): string;
  /** Reads the token again (from the file, when there is one) and makes it current. */
  reload(): string;
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
  const read = (): string => {
    const value = readFileSync(tokenFile, 'utf8').trim();
    if (!value) throw new Error(`portal token file ${tokenFile} is empty`);
    return value;
  };
  let value = read();
  return {
    current: () => value,
    reload: () => (value = read()),
  };
};
