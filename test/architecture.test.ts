import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/start-command.ts';

// Imports point one way: main → app / console → bot / telegram → portal / store → nothing of
// theirs. Each folder lists the folders of src/ it must never import from.

const FORBIDDEN: Record<string, readonly string[]> = {
  portal: ['app', 'bot', 'telegram', 'store', 'console', 'demo', 'metrics'],
  store: ['app', 'bot', 'telegram', 'console', 'demo', 'metrics'],
  http: ['app', 'bot', 'telegram', 'portal', 'store', 'console', 'demo', 'metrics'],
  metrics: ['app', 'bot', 'telegram', 'portal', 'store', 'console', 'demo'],
  demo: ['app', 'bot', 'telegram', 'store', 'console', 'metrics'],
  telegram: ['app', 'bot', 'console', 'demo', 'store'],
  bot: ['app', 'console', 'demo'],
  app: ['console'],
};

const SRC = join(ROOT, 'src');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** The folder of src/ a file is in ('' for the top-level modules). */
const areaOf = (file: string): string => {
  const path = relative(SRC, file);
  return path.includes('/') ? (path.split('/')[0] ?? '') : '';
};

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map((match) =>
    normalize(join(dirname(file), match[1] ?? '')),
  );

describe('the code map', () => {
  it('has imports that point one way', () => {
    const backwards = sourceFiles(SRC).flatMap((file) => {
      const forbidden = FORBIDDEN[areaOf(file)] ?? [];
      return importsOf(file)
        .filter((target) => forbidden.includes(areaOf(target)))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`);
    });
    expect(backwards).toEqual([]);
  });

  it('has no module but main.ts that imports main.ts, and nothing below app/ that imports app/', () => {
    const offenders = sourceFiles(SRC).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.endsWith('/src/main.ts') || (areaOf(target) === 'app' && !['app', ''].includes(areaOf(file)) && areaOf(file) !== 'console'))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
    );
    expect(offenders).toEqual([]);
  });
});
