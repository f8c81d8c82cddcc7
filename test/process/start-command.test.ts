import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, startArgs } from '../support/start-command.ts';

describe('the start command', () => {
  it('is the same in the Dockerfile as in npm start', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(`${ROOT}Dockerfile`, 'utf8'))?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(['node', ...startArgs()]);
  });

  it('runs the entry point built from src/ by the step npm start runs first, which the image runs too', () => {
    const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(startArgs().at(-1)).toBe('dist/main.js');
    expect(scripts.prestart).toBe('node --disable-warning=ExperimentalWarning scripts/build.js');
    expect(scripts.build).toBe(scripts.prestart);
    expect(readFileSync(`${ROOT}Dockerfile`, 'utf8')).toContain('RUN ["node", "--disable-warning=ExperimentalWarning", "scripts/build.js"]');
  });

  it('gives V8 a heap limit, from which the export and watch memory budgets are derived (src/memory-budget.ts)', () => {
    expect(startArgs().some((arg) => /^--max-old-space-size=\d+$/.test(arg))).toBe(true);
  });
});
