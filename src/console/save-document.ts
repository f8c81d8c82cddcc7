import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';

/**
 * Writes a document the bot sent into `dir` (made if missing) under its own name, never over an existing file:
 * "orders.xlsx", then "orders (2).xlsx", "orders (3).xlsx"… Returns the path written. Only the
 * name's last segment is used, so a name with slashes stays in `dir`.
 */
export const saveDocument = (dir: string, fileName: string, bytes: Uint8Array): string => {
  const last = basename(fileName.replaceAll('\\', '/'));
  const name = last === '' || last === '.' || last === '..' ? 'document' : last;
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  mkdirSync(dir, { recursive: true });
  for (let n = 1; ; n += 1) {
    const path = join(dir, n === 1 ? name : `${stem} (${n})${extension}`);
    try {
      writeFileSync(path, bytes, { flag: 'wx' });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
};
