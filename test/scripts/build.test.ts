import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIST } from '../../scripts/build.ts';
import { ROOT } from '../support/start-command.ts';

const files = (dir: string, ending: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name), ending) : entry.name.endsWith(ending) ? [join(dir, entry.name)] : [],
  );

/** main.js and the chunks it imports statically, not those loaded on demand (import()). */
const startChunks = (): Set<string> => {
  const loaded = new Set<string>();
  const visit = (chunk: string) => {
    if (loaded.has(chunk)) return;
    loaded.add(chunk);
    for (const [, imported] of readFileSync(join(DIST, chunk), 'utf8').matchAll(/(?:^|[;}])import(?:[^"'()]*?from)?\s*["']\.\/([^"']+)["']/g)) visit(imported!);
  };
  visit('main.js');
  expect(loaded.size).toBeGreaterThan(1);
  return loaded;
};

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

  it("leaves undici's index out of what every start loads: its client and request API only (src/http/undici.ts)", () => {
    const loaded = startChunks();
    const undici = sourcesOf(loaded)
      .filter((source) => source.includes('node_modules/undici/'))
      .map((source) => source.replace(/^.*node_modules\/undici\//, ''));
    expect(undici).toEqual(expect.arrayContaining(['lib/dispatcher/pool.js', 'lib/dispatcher/agent.js', 'lib/api/api-request.js']));
    // index.js loads fetch, WebSocket, EventSource, the mocks, the cache stores, the proxies and the interceptors.
    const unwanted = /^(index\.js|lib\/global\.js|lib\/(mock|cache|interceptor)\/|lib\/web\/(websocket|eventsource|cache)\/|lib\/web\/fetch\/index\.js|lib\/dispatcher\/(proxy-agent|retry-agent|env-http-proxy-agent|socks5-proxy-agent)\.js)/;
    expect(undici.filter((source) => unwanted.test(source))).toEqual([]);
    // undici's HTTP/2 client takes src/http/lazy-http2.ts: node:http2 waits for the first HTTP/2 session.
    expect(undici).toContain('lib/dispatcher/client-h2.js');
    const code = [...loaded].map((chunk) => readFileSync(join(DIST, chunk), 'utf8')).join('\n');
    expect(code).not.toMatch(/require\(["'`]node:http2["'`]\)|from\s*["']node:http2["']/);
    expect(code).toContain('getBuiltinModule(`node:http2`)');
  });

  it("leaves node-fetch out of what every start loads: Telegraf's client takes src/http/lazy-node-fetch.ts", () => {
    const loaded = startChunks();
    const sources = sourcesOf(loaded);
    expect(sources).toContain('../node_modules/telegraf/lib/core/network/client.js');
    expect(sources).toContain('../src/http/lazy-node-fetch.ts');
    // node-fetch with whatwg-url, tr46 (its 260 KB mapping table) and punycode: 4 MB resident at start.
    expect(sources.filter((source) => /node_modules\/(node-fetch|whatwg-url|tr46|punycode|webidl-conversions)\//.test(source))).toEqual([]);
    expect([...loaded].map((chunk) => readFileSync(join(DIST, chunk), 'latin1')).join('\n')).not.toContain('disallowed_STD3_valid');
    // ...and they are in the bundle, for the first call.
    const all = sourcesOf(readdirSync(DIST).filter((name) => name.endsWith('.js')));
    expect(all).toEqual(expect.arrayContaining(['../node_modules/node-fetch/lib/index.js', '../node_modules/tr46/index.js']));
  });

  it("calls node-fetch through the stand-in as the bundle wires it for Telegraf's client (an ES module required from CommonJS)", async () => {
    // A copy of dist/ whose chunk with Telegraf's client also exports the stand-in, as client.js sees it.
    const copy = mkdtempSync(join(tmpdir(), 'dist-copy-'));
    const server = createServer((request, response) => response.end(`node-fetch ${request.url}`));
    try {
      for (const file of readdirSync(DIST)) copyFileSync(join(DIST, file), join(copy, file));
      const chunk = readdirSync(copy).find((name) => name.endsWith('.js') && readFileSync(join(copy, name), 'latin1').includes('__toCommonJS(lazy_node_fetch_exports)'))!;
      expect(chunk).toBeDefined();
      appendFileSync(join(copy, chunk), '\nexport { init_lazy_node_fetch as initStandIn, lazy_node_fetch_exports as standIn, __toCommonJS as toCommonJS };\n');
      const built = (await import(pathToFileURL(join(copy, chunk)).href)) as { initStandIn: () => void; standIn: object; toCommonJS: (module: object) => { __esModule?: boolean; default: (url: string) => Promise<{ status: number; text: () => Promise<string> }> } };
      built.initStandIn();
      // What client.js's __importDefault(require("node-fetch")) gets: an ES module it keeps as is.
      const required = built.toCommonJS(built.standIn);
      expect(required.__esModule).toBe(true);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const response = await required.default(`http://127.0.0.1:${(server.address() as { port: number }).port}/getMe`);
      expect([response.status, await response.text()]).toEqual([200, 'node-fetch /getMe']);
    } finally {
      server.close();
      rmSync(copy, { recursive: true, force: true });
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
