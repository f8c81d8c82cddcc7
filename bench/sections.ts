import { existsSync, readFileSync, writeFileSync } from 'node:fs';

// Sections of BENCHMARKS.md that one scenario writes and the others keep: each sits between two
// markers; its scenario replaces what is between them, and `npm run bench`, which rewrites the
// file, carries the others over.

export type Markers = { begin: string; end: string };

/** The marked section of the file at `path`, markers included; '' when it has none. */
export const markedSection = (path: string, { begin, end }: Markers): string => {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const from = text.indexOf(begin);
  const to = text.indexOf(end, from);
  return from < 0 || to < 0 ? '' : text.slice(from, to + end.length);
};

/**
 * The file at `path` with `section` in place of its marked one; without one, the section goes
 * right before the section `before` names, or right after `after`'s, when the file has that, else
 * at the end.
 */
export const writeMarkedSection = (path: string, markers: Markers, section: string, place: { before?: Markers; after?: Markers } = {}): void => {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const old = markedSection(path, markers);
  if (old) return writeFileSync(path, text.replace(old, () => section));
  const before = place.before ? markedSection(path, place.before) : '';
  const after = place.after ? markedSection(path, place.after) : '';
  if (before) return writeFileSync(path, text.replace(before, () => `${section}\n\n${before}`));
  if (after) return writeFileSync(path, text.replace(after, () => `${after}\n\n${section}`));
  writeFileSync(path, `${text.trimEnd()}\n\n${section}\n`);
};
