import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, startArgs } from '../support/start-command.ts';

describe('the start command', () => {
  it('is the same in the Dockerfile as in npm start', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(`${ROOT}Dockerfile`, 'utf8'))?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(['node', ...startArgs()]);
  });

  it('runs the TypeScript entry point with no build step', () => {
    expect(startArgs().at(-1)).toBe('src/main.ts');
  });
});
