import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm start` runs this first (prestart): src/**/*.ts as plain JavaScript in dist/, so the bot's
// process never loads Node's TypeScript stripper (about 17 MB resident, 30–40 MB with the modules
// it strips, BENCHMARKS.md). The transform is the one Node applies when it runs a .ts file itself
// (erasable syntax only: types are replaced by blanks, so every line and column stays where it is
// in src/ and a stack trace reads against the sources); relative `.ts` imports become `.js`.
// Under a second for the whole tree, and nothing at all when dist/ was built from the same sources
// (its .stamp: a hash of them and of this script), so a start needs no write access then. A new
// tree is written aside and moved into place whole; when another build (a second `npm start`, a
// test run) put the same tree there first, that one is kept.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE = join(ROOT, 'src');
export const DIST = join(ROOT, 'dist');

/** `from './x.ts'`, `import('./x.ts')`, `import './x.ts'`, `export … from '../y.ts'`. */
const RELATIVE_TS = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"\n]*?)\.ts\2/g;
/** Any relative specifier still ending in .ts after the rewrite: a form the pattern above missed. */
const LEFT_OVER = /(['"])\.\.?\/[^'"\n]*\.ts\1/;

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

/** One module as JavaScript: types stripped, relative imports pointing at the built files. */
export const toJavaScript = (code: string, file: string): string => {
  const stripped = stripTypeScriptTypes(code, { mode: 'strip' });
  const rewritten = stripped.replace(RELATIVE_TS, (_whole, keyword: string, quote: string, path: string) => `${keyword}${quote}${path}.js${quote}`);
  const missed = LEFT_OVER.exec(rewritten);
  if (missed) throw new Error(`${file}: an import of a .ts module the build does not rewrite: ${missed[0]}`);
  return rewritten;
};

const STAMP = '.stamp';

const stampOf = (files: readonly string[], sources: readonly string[]): string => {
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  files.forEach((file, index) => hash.update(`\0${relative(ROOT, file)}\0`).update(sources[index]!));
  return hash.digest('hex');
};

const builtStamp = (dir: string): string | undefined => {
  try {
    return readFileSync(join(dir, STAMP), 'utf8');
  } catch {
    return undefined;
  }
};

export const build = (): { files: number; ms: number; built: boolean } => {
  const started = performance.now();
  const files = sources(SOURCE).sort();
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  const stamp = stampOf(files, texts);
  if (builtStamp(DIST) === stamp) return { files: files.length, ms: performance.now() - started, built: false };
  const staging = `${DIST}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    files.forEach((file, index) => {
      const target = join(staging, relative(SOURCE, file)).replace(/\.ts$/, '.js');
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, toJavaScript(texts[index]!, relative(ROOT, file)));
    });
    writeFileSync(join(staging, STAMP), stamp);
    rmSync(DIST, { recursive: true, force: true });
    try {
      renameSync(staging, DIST);
    } catch (error) {
      // Another build installed its tree between the removal and the rename: the same one is as good.
      if (builtStamp(DIST) !== stamp) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return { files: files.length, ms: performance.now() - started, built: true };
};

const isEntryPoint = (): boolean => {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
};

if (isEntryPoint()) {
  try {
    const { files, ms, built } = build();
    process.stderr.write(built ? `built ${files} modules into dist/ in ${Math.round(ms)} ms\n` : `dist/ is up to date (${files} modules)\n`);
  } catch (error) {
    process.stderr.write(`build failed: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
