import { stripTypeScriptTypes } from 'node:module';

// The benchmark's own bots (bench/proc.ts) as plain JavaScript, file by file: Node's type stripping,
// relative `.ts` imports pointed at `.js`. The bot itself is bundled by scripts/build.ts.

/** `from './x.ts'`, `import('./x.ts')`, `import './x.ts'`, `export … from '../y.ts'`. */
const RELATIVE_TS = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.\.?\/[^'"\n]*?)\.ts\2/g;
/** Any relative specifier still ending in .ts after the rewrite: a form the pattern above missed. */
const LEFT_OVER = /(['"])\.\.?\/[^'"\n]*\.ts\1/;

/** One module as JavaScript: types stripped, relative imports pointing at the built files. */
export const toJavaScript = (code: string, file: string): string => {
  const stripped = stripTypeScriptTypes(code, { mode: 'strip' });
  const rewritten = stripped.replace(RELATIVE_TS, (_whole, keyword: string, quote: string, path: string) => `${keyword}${quote}${path}.js${quote}`);
  const missed = LEFT_OVER.exec(rewritten);
  if (missed) throw new Error(`${file}: an import of a .ts module the build does not rewrite: ${missed[0]}`);
  return rewritten;
};
