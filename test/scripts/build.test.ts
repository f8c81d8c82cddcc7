import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST } from '../../scripts/build.ts';
import { ROOT } from '../support/start-command.ts';

const files = (dir: string, ending: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name), ending) : entry.name.endsWith(ending) ? [join(dir, entry.name)] : [],
  );

/** The source files bundled into these chunks of dist/ (rolldown's own runtime chunk has no map: none of it comes from a package). */
const sourcesOf = (chunks: Iterable<string>): string[] =>
  [...chunks]
    .filter((chunk) => existsSync(join(DIST, `${chunk}.map`)))
    .flatMap((chunk) => (JSON.parse(readFileSync(join(DIST, `${chunk}.map`), 'utf8')) as { sources: string[] }).sources);

describe('the build npm start runs first', () => {
  it('bundled the bot into dist/ (vitest global set-up ran it): ASCII only, positions mapped back to src/', () => {
    const chunks = files(DIST, '.js');
    expect(chunks.map((file) => relative(DIST, file))).toContain('main.js');
    // One character past Latin-1 and V8 keeps the whole chunk's source two bytes a character.
    for (const file of chunks) expect(readFileSync(file, 'latin1'), relative(DIST, file)).not.toMatch(/[\u0080-\uffff]/);
    const map = JSON.parse(readFileSync(join(DIST, 'main.js.map'), 'utf8')) as { sources: string[] };
    const ours = files(join(ROOT, 'src'), '.ts').map((file) => relative(DIST, file));
    expect(map.sources).toEqual(expect.arrayContaining(['../src/main.ts', '../src/format.ts', '../src/bot/create-bot.ts']));
    expect(map.sources.filter((source) => source.startsWith('../src/')).every((source) => ours.includes(source))).toBe(true);
  });

  it("starts without a deprecation warning: tr46 (node-fetch's, in Telegraf) gets the punycode package, not Node's deprecated built-in", () => {
    const data = mkdtempSync(join(tmpdir(), 'build-start-'));
    try {
      const env = { PATH: process.env.PATH ?? '', DATA_DIR: data, LOG_LEVEL: 'info', LANG: 'en_US.UTF-8' };
      const run = spawnSync(process.execPath, [join(DIST, 'main.js')], { cwd: ROOT, env, input: '/order 0007300100\n', encoding: 'utf8', timeout: 30_000 });
      expect(run.stdout).toContain('Order No. 0007300100');
      expect(run.stderr).not.toContain('process warning');
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });

  it('maps a stack trace back to the .ts line with --enable-source-maps', () => {
    // The demo portal's chunk is loaded alone; an error made inside it must name src/demo/*.ts.
    const chunk = files(DIST, '.js').find((file) => relative(DIST, file).startsWith('portal-server-'))!;
    const script = `const m = await import(${JSON.stringify(chunk)}); try { await m.startDemoPortal({ port: -1 }); } catch (e) { console.log(e.stack); }`;
    const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/src\/demo\/portal-server\.ts:\d+:\d+/);
  });
});

describe('the licences of what dist/ bundles', () => {
  it('dist/THIRD_PARTY_LICENSES names every package whose code a chunk holds, with its licence text', () => {
    const notice = readFileSync(join(DIST, 'THIRD_PARTY_LICENSES'), 'utf8');
    // The packages as the source maps name them (independently of the modules rolldown reported).
    const roots = new Set(
      sourcesOf(readdirSync(DIST).filter((name) => name.endsWith('.js')))
        .map((source) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1])
        .filter((root) => root !== undefined)
        .map((root) => resolve(DIST, root)),
    );
    expect(roots.size).toBeGreaterThan(100);
    const names = new Set<string>();
    for (const root of roots) {
      const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
      names.add(name);
      expect(notice).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} ${version.replaceAll('.', '\\.')}( \\(.+\\))?$`, 'm'));
      const license = readdirSync(root).find((file) => /^licen[cs]e([.-].*)?$/i.test(file));
      if (license !== undefined) expect(notice, name).toContain(readFileSync(join(root, license), 'utf8').trim());
    }
    for (const name of ['telegraf', 'zod', 'pino', 'undici', 'pg', 'exceljs']) expect(names).toContain(name);
    // Our own sources are not a third party's.
    expect(notice).not.toMatch(/^order-lookup-bot /m);
  });
});

describe('building again', () => {
  it('writes nothing when dist/ was built from the same sources (a start needs no write access then)', async () => {
    const { build } = await import('../../scripts/build.ts');
    const stamp = readFileSync(join(DIST, '.stamp'), 'utf8');
    expect((await build()).built).toBe(false);
    expect(readFileSync(join(DIST, '.stamp'), 'utf8')).toBe(stamp);
  });
});
