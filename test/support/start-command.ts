import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The project's root directory. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The arguments `npm start` gives node (flags and the entry point), so that tests and the
 * benchmark start the bot exactly as production does: `spawn(process.execPath, startArgs())`.
 */
export const startArgs = (): string[] => nodeArgs('start');

/** The arguments of a package.json script that must be a plain `node …` command. */
const nodeArgs = (name: 'start' | 'prestart'): string[] => {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };
  const script = scripts[name] ?? '';
  const [command, ...args] = script.trim().split(/\s+/);
  if (command !== 'node' || args.some((arg) => /["'$`\\]/.test(arg))) throw new Error(`npm ${name} must be a plain "node …" command: ${script}`);
  return args;
};

/** Builds dist/ as `npm start` does first (its prestart script), in the project's root. */
export const buildAsNpmStart = (): void => {
  const result = spawnSync(process.execPath, nodeArgs('prestart'), { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the build npm start runs first failed:\n${result.stderr}`);
};
