import { describe, expect, it } from 'vitest';
import { toJavaScript } from '../../bench/to-javascript.ts';

describe("the benchmark bots' JavaScript", () => {
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
});
