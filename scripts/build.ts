import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOTICE_FILE, thirdPartyNotice } from './third-party-licenses.ts';

// `npm start` runs this first (prestart, through scripts/build.js): the bot as one bundle in dist/
// (main.js, and a chunk for each part loaded only when used: the console chat, the demo portal,
// PostgreSQL, the export), built by rolldown from src/main.ts and the dependencies it imports, our
// modules through Node's own type stripping (erasable syntax only). The bot then runs as plain
// JavaScript without comments, in ASCII, and Node's type stripper never loads (less resident
// memory than src/ run directly: docs/performance.md); the image needs no node_modules. Names are
// kept; dist/*.js.map maps every position back to src/ for `node --enable-source-maps`;
// dist/THIRD_PARTY_LICENSES holds the licences of the packages bundled. Nothing is done when dist/
// was built from the same sources, locales and lock file (its .stamp), so a start needs no write
// access then. A new tree is written aside and moved into place whole; when another build (a
// second `npm start`, a test run) put the same tree there first, that one is kept.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE = join(ROOT, 'src');
export const DIST = join(ROOT, 'dist');

const sources = (dir: string, ending = '.ts'): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path, ending);
    return entry.name.endsWith(ending) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });

const STAMP = '.stamp';

// The dependencies are bundled too: a changed lock file is a changed bot.
const stampOf = (files: readonly string[], sources: readonly string[]): string => {
  const hash = createHash('sha256');
  for (const script of ['build.ts', 'third-party-licenses.ts']) hash.update(readFileSync(fileURLToPath(new URL(script, import.meta.url))));
  hash.update(readFileSync(join(ROOT, 'package-lock.json')));
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

/** Every .ts module through Node's own type stripping, nothing else changed (positions stay). */
const nodeTypeStripping = {
  name: 'node-type-stripping',
  transform: (code: string, id: string) => (id.endsWith('.ts') ? { code: stripTypeScriptTypes(code, { mode: 'strip' }), moduleType: 'js' as const, map: null } : null),
};

/** rolldown, a development dependency, is not installed (`npm ci --omit=dev`) and dist/ must be built. */
export class BuildToolMissingError extends Error {
  constructor(options?: ErrorOptions) {
    super(
      'dist/ is missing or was built from other sources, and rolldown, the development dependency that builds it, is not installed ' +
        '(`npm ci --omit=dev` leaves development dependencies out). Build dist/ before leaving them out: ' +
        '`npm ci && npm run build && npm prune --omit=dev`; then `npm start` runs dist/ alone (on Node 24 or newer). Or run the Docker image.',
      options,
    );
    this.name = 'BuildToolMissingError';
  }
}

const loadRolldown = async () => {
  try {
    return await import('rolldown');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') throw new BuildToolMissingError({ cause: error });
    throw error;
  }
};

const bundle = async (dir: string): Promise<void> => {
  const { rolldown } = await loadRolldown();
  const bundler = await rolldown({
    input: join(SOURCE, 'main.ts'),
    platform: 'node',
    // pg's optional native binding is never installed. tr46 (node-fetch's, in Telegraf) requires
    // Node's deprecated punycode built-in, which warns at every start once bundled (Node spares only
    // code under node_modules/): it gets the punycode package, the userland module the warning names.
    external: (id) => id === 'pg-native' || id.startsWith('node:'),
    resolve: { alias: { punycode: 'punycode/' } },
    plugins: [nodeTypeStripping],
    logLevel: 'warn',
  });
  try {
    const { output } = await bundler.write({
      dir,
      format: 'esm',
      sourcemap: true,
      charset: 'ascii',
      // No comments kept, licence headers included (one non-ASCII name makes the whole chunk's
      // source two bytes a character): the packages' licences are in dist/THIRD_PARTY_LICENSES.
      comments: false,
      minify: { mangle: false, compress: false, codegen: { removeWhitespace: true } },
    });
    writeFileSync(join(dir, NOTICE_FILE), thirdPartyNotice(output.flatMap((file) => (file.type === 'chunk' ? file.moduleIds : []))));
  } finally {
    await bundler.close();
  }
};

export const build = async (): Promise<{ files: number; ms: number; built: boolean }> => {
  const started = performance.now();
  const files = sources(SOURCE).sort();
  // The locales' strings are bundled too (src/i18n.ts imports them).
  const inputs = [...files, ...sources(join(ROOT, 'locales'), '.json').sort()];
  const texts = inputs.map((file) => readFileSync(file, 'utf8'));
  const stamp = stampOf(inputs, texts);
  if (builtStamp(DIST) === stamp) return { files: files.length, ms: performance.now() - started, built: false };
  const staging = `${DIST}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    await bundle(staging);
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
