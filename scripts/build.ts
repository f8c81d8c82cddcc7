import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm start` runs this first (prestart): src/**/*.ts as plain JavaScript in dist/, so the bot's
// process never loads Node's TypeScript stripper (about 17 MB resident, 30–40 MB with the modules
// it strips, BENCHMARKS.md). The transform is the one Node applies when it runs a .ts file itself
// (erasable syntax only: types are replaced by blanks, so every line and column stays where it is
// in src/ and a stack trace reads against the sources); relative `.ts` imports become `.js`.
// Under a second for the whole tree. The tree is written aside and moved into place whole.

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

export const build = (): { files: number; ms: number } => {
  const started = performance.now();
  const staging = `${DIST}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const files = sources(SOURCE);
  for (const file of files) {
    const target = join(staging, relative(SOURCE, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, toJavaScript(readFileSync(file, 'utf8'), relative(ROOT, file)));
  }
  rmSync(DIST, { recursive: true, force: true });
  renameSync(staging, DIST);
  return { files: files.length, ms: performance.now() - started };
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { files, ms } = build();
    process.stderr.write(`built ${files} modules into dist/ in ${Math.round(ms)} ms\n`);
  } catch (error) {
    process.stderr.write(`build failed: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
