import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/start-command.ts';

// The layout of src/ (docs/architecture.md, "Code map"): imports point one way,
//   main → app / console → bot → export / watch → portal / store / telegram → http, root modules,
// Telegraf is touched in its adapter only, no package is used through its internals, and test/
// mirrors src/. Each area lists the areas of src/ it must never import from.

const SRC = join(ROOT, 'src');
const TEST = join(ROOT, 'test');

/** The modules at src/'s top level: main.ts, and small modules every layer may import. */
const ROOT_MODULES = [
  'access.ts',
  'backoff.ts',
  'config.ts',
  'format.ts',
  'i18n.ts',
  'logger.ts',
  'main.ts',
  'memory-budget.ts',
  'query.ts',
  'recognise.ts',
  'remembered.ts',
  'secret-files.ts',
  'short-hash.ts',
  'status-names.ts',
  'zone.ts',
];

const FOLDERS = ['app', 'bot', 'console', 'demo', 'export', 'http', 'metrics', 'portal', 'store', 'store/sqlite', 'store/postgres', 'telegram', 'watch'] as const;
const except = (...allowed: string[]): string[] => FOLDERS.filter((folder) => !allowed.includes(folder));

/** Area → the areas it must not import. '' is the root modules but main.ts and query.ts. */
const FORBIDDEN: Record<string, readonly string[]> = {
  query: [...FOLDERS, '', 'main'],
  '': [...FOLDERS, 'main'],
  http: [...FOLDERS, 'main'],
  metrics: [...FOLDERS, 'main'],
  portal: [...except('http'), 'main'],
  // Both backends share store/'s interfaces, errors, caches and row readers, never each other.
  store: [...except('store/sqlite', 'store/postgres'), 'main'],
  'store/sqlite': [...except('store'), 'main'],
  'store/postgres': [...except('store'), 'main'],
  telegram: [...except('http'), 'main'],
  demo: [...except('http', 'portal'), 'main'],
  watch: [...except('portal', 'store', 'telegram'), 'main'],
  export: [...except('portal', 'telegram'), 'main'],
  bot: ['app', 'console', 'demo', 'main'],
  app: ['console', 'main'],
  console: ['main'],
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

const path = (file: string): string => relative(SRC, file);

/** The area of src/ a file is in: a folder (store's backends each their own), a root module's name, or ''. */
const areaOf = (file: string): string => {
  const parts = path(file).split('/');
  if (parts.length === 1) return file.endsWith('/src/query.ts') ? 'query' : file.endsWith('/src/main.ts') ? 'main' : '';
  if (parts[0] === 'store' && parts.length > 2) return `store/${parts[1]}`;
  return parts[0] ?? '';
};

const specifiersOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:^import[^;]*?from\s+|^export[^;]*?from\s+|import\s*\(\s*)'([^']+)'/gm)].map((match) => match[1] ?? '');

const importsOf = (file: string): string[] =>
  specifiersOf(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => normalize(join(dirname(file), specifier)));

/** `from → to` for each import of a file of src/ that `offends`. */
const offences = (offends: (file: string, target: string) => boolean): string[] =>
  sourceFiles(SRC).flatMap((file) => importsOf(file).filter((target) => target.startsWith(SRC) && offends(file, target)).map((target) => `${path(file)} → ${path(target)}`));

const inside = (file: string, ...prefixes: string[]): boolean => prefixes.some((prefix) => path(file) === prefix || path(file).startsWith(`${prefix}/`));

describe('the code map', () => {
  it('has imports that point one way', () => {
    expect(offences((file, target) => areaOf(file) !== areaOf(target) && (FORBIDDEN[areaOf(file)] ?? []).includes(areaOf(target)))).toEqual([]);
  });

  it('has at src/ top level only the root modules on the list, main.ts the only one that imports a folder', () => {
    const top = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    expect(top.filter((name) => !ROOT_MODULES.includes(name))).toEqual([]);
    expect(readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()).toEqual(
      ['app', 'bot', 'console', 'demo', 'export', 'http', 'metrics', 'portal', 'store', 'telegram', 'watch'],
    );
  });

  it('has nothing import main.ts, and nothing below app/ import app/', () => {
    expect(offences((file, target) => target.endsWith('/src/main.ts') || (areaOf(target) === 'app' && !['app', 'main', 'console'].includes(areaOf(file))))).toEqual([]);
  });

  it('picks a store backend in store/open-store.ts only', () => {
    expect(offences((file, target) => areaOf(file) === 'store' && ['store/sqlite', 'store/postgres'].includes(areaOf(target)) && path(file) !== 'store/open-store.ts')).toEqual([]);
  });

  it('has views that never import the features, middleware or handlers that use them, and keyboards that never import views', () => {
    const bot = (file: string) => inside(file, 'bot');
    // Within bot/: what a pure view may use, and less for a keyboard and for the button codec.
    const views = ['bot/views', 'bot/keyboards', 'bot/callback-data', 'bot/lookup-args.ts', 'bot/paging.ts'];
    const keyboards = ['bot/keyboards', 'bot/callback-data', 'bot/paging.ts'];
    expect(offences((file, target) => inside(file, 'bot/views') && bot(target) && !inside(target, ...views))).toEqual([]);
    expect(offences((file, target) => inside(file, 'bot/keyboards') && bot(target) && !inside(target, ...keyboards))).toEqual([]);
    expect(offences((file, target) => inside(file, 'bot/callback-data') && bot(target) && !inside(target, 'bot/callback-data'))).toEqual([]);
  });
});

describe('Telegraf', () => {
  const telegraf = (specifier: string) => specifier === 'telegraf' || specifier.startsWith('telegraf/');

  it('is imported by its adapter only (src/telegram/telegraf/), in src/ and in the tests of src/', () => {
    const files = [...sourceFiles(SRC).filter((file) => !inside(file, 'telegram/telegraf')), ...sourceFiles(TEST).filter((file) => !relative(TEST, file).startsWith('support/'))];
    const importers = files.filter((file) => specifiersOf(file).some(telegraf)).map((file) => relative(ROOT, file));
    expect(importers).toEqual([]);
  });

  it('is made in one place, which says why there is no bot.command, bot.action or launch()', () => {
    const makers = sourceFiles(SRC).filter((file) => /new Telegraf\b/.test(readFileSync(file, 'utf8'))).map(path);
    expect(makers).toEqual(['telegram/telegraf/bot.ts']);
    const adapter = readFileSync(join(SRC, 'telegram/telegraf/bot.ts'), 'utf8');
    for (const word of ['bot.command', 'bot.action', 'bot.launch()', 'handleUpdate', 'callApi', 'bot.context']) expect(adapter).toContain(word);
    const telegrafRouting = /\bbot\.(command|action|launch|on|hears)\(/;
    expect(sourceFiles(SRC).filter((file) => !inside(file, 'telegram/telegraf') && telegrafRouting.test(readFileSync(file, 'utf8'))).map(path)).toEqual([]);
  });
});

describe('packages', () => {
  /** Subpaths a package names in its exports map (not through a wildcard); none for a package without one. */
  const publicSubpaths = (name: string): string[] => {
    const { exports } = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { exports?: unknown };
    if (exports === undefined || typeof exports === 'string') return [];
    return Object.keys(exports as object).filter((key) => key !== '.' && !key.includes('*')).map((key) => key.slice(2));
  };
  it('are used through their public entry points only: no subpath a package does not export', () => {
    const internal = sourceFiles(SRC).flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
        .filter((specifier) => {
          const parts = specifier.split('/');
          const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
          const subpath = parts.slice(name.split('/').length).join('/');
          return subpath !== '' && !publicSubpaths(name).includes(subpath);
        })
        .map((specifier) => `${path(file)} → ${specifier}`),
    );
    expect(internal).toEqual([]);
  });
});

describe('the tests', () => {
  /** Folders of test/ that are no module's: support, fixtures, whole-bot and whole-process specifications, the build and the bench. */
  const OWN = ['support', 'fixtures', 'e2e', 'process', 'scripts', 'bench'];
  const folders = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => [join(dir, entry.name), ...folders(join(dir, entry.name))]);

  it('mirror src/: each folder of module tests is a folder of src/', () => {
    const orphans = folders(TEST)
      .map((dir) => relative(TEST, dir))
      .filter((dir) => !OWN.includes(dir.split('/')[0] ?? ''))
      .filter((dir) => !folders(SRC).map((src) => relative(SRC, src)).includes(dir));
    expect(orphans).toEqual([]);
  });
});
