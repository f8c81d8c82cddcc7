import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// What bench/profile-top.ts and bench/heap-top.ts share: which profiles to read, and how a frame
// of V8's profiles is named (the bot runs from dist/, built line for line from src/).

export type CallFrame = { functionName: string; url: string; lineNumber: number };

/** The profiles named on the command line: one file, or those in a directory ending in `ending`. */
export const profileFiles = (target: string, ending: string): string[] =>
  target.endsWith(ending) ? [target] : readdirSync(target).filter((file) => file.endsWith(ending)).map((file) => join(target, file));

/** `node_modules/…`, `dist/…`, `src/…` or `bench/…` for a file of the project; anything else as it is. */
export const shortUrl = (url: string): string => url.replace(/^file:\/\/.*?\/(node_modules|src|dist|bench)\//, '$1/');

/** `name file:line`, the key both tools count by. */
export const frameName = ({ functionName, url, lineNumber }: CallFrame): string => `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;

/** A frame of the bot's own code, whose inclusive figures the tools list. */
export const isOwnCode = (name: string): boolean => / (src|dist)\//.test(name);
