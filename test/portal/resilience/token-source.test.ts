import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenSource, TokenFileError } from '../../../src/portal/resilience/token-source.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-token-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What createTokenSource threw for the file. */
const refusal = (tokenFile: string): unknown => {
  try {
    createTokenSource({ tokenFile });
  } catch (error) {
    return error;
  }
  throw new Error('the token file was read');
};

describe('a PORTAL_TOKEN_FILE that cannot be used', () => {
  it('is missing: a TokenFileError naming the file', () => {
    const file = join(dir, 'missing');
    const error = refusal(file);
    expect(error).toBeInstanceOf(TokenFileError);
    expect(error).toMatchObject({ path: file, code: 'ERR_TOKEN_FILE' });
    expect((error as Error).message).toBe(
      `cannot read the portal token file ${file} (PORTAL_TOKEN_FILE): no such file. Put the token there, or point PORTAL_TOKEN_FILE at the file that has it.`,
    );
  });

  it('is a directory', () => {
    const file = join(dir, 'token');
    mkdirSync(file);
    expect(refusal(file)).toMatchObject({ path: file, message: expect.stringContaining(`${file} (PORTAL_TOKEN_FILE): it is a directory.`) });
  });

  it('is empty', () => {
    const file = join(dir, 'token');
    writeFileSync(file, ' \n');
    const error = refusal(file);
    expect(error).toBeInstanceOf(TokenFileError);
    expect((error as Error).message).toBe(`cannot read the portal token file ${file} (PORTAL_TOKEN_FILE): it is empty. Put the token there.`);
  });

  it('is emptied after start: reload says so too', () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'first\n');
    const tokens = createTokenSource({ tokenFile: file });
    writeFileSync(file, '');
    expect(() => tokens.reload()).toThrow(TokenFileError);
    expect(tokens.current()).toBe('first');
  });
});
