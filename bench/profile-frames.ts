import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// What bench/profile-top.ts and bench/heap-top.ts share: which profiles to read, and how a frame
// of V8's profiles is named (the bot runs from dist/, a bundle: a frame there is named by the file
// of src/ or node_modules/ and the line its source map gives).

export type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber?: number };

const sourceMaps = new Map<string, SourceMap | undefined>();
const sourceMapOf = (url: string): SourceMap | undefined => {
  if (!sourceMaps.has(url)) {
    try {
      sourceMaps.set(url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as SourceMapPayload));
    } catch {
      sourceMaps.set(url, undefined);
    }
  }
  return sourceMaps.get(url);
};

/** A frame of the bundle as the source it was built from (`../src/x.ts`); any other as it is. */
const original = (frame: CallFrame): { url: string; lineNumber: number } => {
  if (!/^file:.*\/dist\/[^/]+\.js$/.test(frame.url)) return frame;
  const entry = sourceMapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber ?? 0);
  // A segment of the bundle's own (the runtime helpers) has no source: named as it is.
  return entry && 'originalSource' in entry && typeof entry.originalSource === 'string' ? { url: entry.originalSource, lineNumber: entry.originalLine } : frame;
};

/** The profiles named on the command line: one file, or those in a directory ending in `ending`. */
export const profileFiles = (target: string, ending: string): string[] =>
  target.endsWith(ending) ? [target] : readdirSync(target).filter((file) => file.endsWith(ending)).map((file) => join(target, file));

/** `node_modules/…`, `dist/…`, `src/…` or `bench/…` for a file of the project; anything else as it is. */
const shortUrl = (url: string): string => url.replace(/^(?:file:\/\/.*?\/|(?:\.\.\/)+)(node_modules|src|dist|bench)\//, '$1/');

/** The file a frame's code comes from, the bundle's frames at their place in the sources. */
export const frameFile = (frame: CallFrame): string => shortUrl(original(frame).url);

/** `name file:line`, the key both tools count by; a frame of the bundle at its place in the sources. */
export const frameName = (frame: CallFrame): string => {
  const { url, lineNumber } = original(frame);
  return `${frame.functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
};

/** A frame of the bot's own code, whose inclusive figures the tools list. */
export const isOwnCode = (name: string): boolean => / (src|dist)\//.test(name);
