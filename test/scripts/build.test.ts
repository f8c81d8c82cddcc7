import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, toJavaScript } from '../../scripts/build.ts';
import { ROOT } from '../support/start-command.ts';

const files = (dir: string, ending: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name), ending) : entry.name.endsWith(ending) ? [join(dir, entry.name)] : [],
  );

describe('the build npm start runs first', () => {
  it('strips types in place: every line stays where it is in the source', () => {
    const source = ["import type { A } from './a.ts';", "import { b } from '../b.ts';", 'export const c = (x: number): A => b(x as never);', ''].join('\n');
    const built = toJavaScript(source, 'x.ts').split('\n');
    expect(built).toHaveLength(4);
    expect(built[1]).toBe("import { b } from '../b.js';");
    expect(built[2]).toMatch(/^export const c = \(x\s*\)\s*=> b\(x\s*\);\s*$/);
  });

  it('rewrites every form of relative .ts import, and leaves packages and other files alone', () => {
    const built = toJavaScript(
      [
        "import { a } from './a.ts';",
        "export { b } from \"../b/b.ts\";",
        "import './side-effect.ts';",
        "const later = () => import('./later.ts');",
        "import ru from '../locales/ru.json' with { type: 'json' };",
        "import { z } from 'zod';",
        'export { later, a, ru, z };',
      ].join('\n'),
      'x.ts',
    );
    expect(built).toContain("from './a.js'");
    expect(built).toContain('from "../b/b.js"');
    expect(built).toContain("import './side-effect.js'");
    expect(built).toContain("import('./later.js')");
    expect(built).toContain("from '../locales/ru.json'");
    expect(built).toContain("from 'zod'");
  });

  it('refuses a .ts import it would not rewrite instead of building a bot that cannot start', () => {
    expect(() => toJavaScript("const name = './hidden.ts';\nexport { name };", 'x.ts')).toThrow(/x\.ts: an import of a \.ts module/);
  });

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

  it('maps a stack trace back to the .ts line with --enable-source-maps', () => {
    // The demo portal's chunk is loaded alone; an error made inside it must name src/demo/*.ts.
    const chunk = files(DIST, '.js').find((file) => relative(DIST, file).startsWith('portal-server-'))!;
    const script = `const m = await import(${JSON.stringify(chunk)}); try { await m.startDemoPortal({ port: -1 }); } catch (e) { console.log(e.stack); }`;
    const run = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/src\/demo\/portal-server\.ts:\d+:\d+/);
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
