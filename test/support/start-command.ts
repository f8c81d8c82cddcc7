import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The project's root directory. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The arguments `npm start` gives node (flags and the entry point), so that tests and the
 * benchmark start the bot exactly as production does: `spawn(process.execPath, startArgs())`.
 */
export const startArgs = (): string[] => {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: { start: string } };
  const [command, ...args] = scripts.start.trim().split(/\s+/);
  if (command !== 'node' || args.some((arg) => /["'$`\\]/.test(arg))) throw new Error(`npm start must be a plain "node …" command: ${scripts.start}`);
  return args;
};
