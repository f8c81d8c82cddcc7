import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/start-command.ts';

// Every relative link in the README and docs/ leads somewhere: to a file or folder of the
// repository, and a `#anchor` to a heading of the Markdown file it names (GitHub's slugs).

/** The documents the README points its readers to. */
const DOCS = ['operations.md', 'replicas.md', 'architecture.md', 'performance.md', 'development.md'];

const documents = (): string[] => [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks, line by line (numbers kept). */
const proseLines = (markdown: string): string[] => {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening !== undefined) {
      fence = opening;
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return '';
    }
    return line;
  });
};

/** Code spans hold no links: `[a](b)` inside backticks is text. */
const withoutCodeSpans = (line: string): string => line.replace(/(`+)[^`]*?\1/g, '');

/** GitHub's anchor for a heading: its text, lower case, punctuation dropped, spaces as hyphens. */
const slugOf = (heading: string): string =>
  heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** Every anchor a Markdown document offers: its headings (repeats numbered as GitHub does) and `<a id>`. */
const anchorsOf = (markdown: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = slugOf(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] ?? '');
  }
  return anchors;
};

/** The link targets of a document with their line numbers: inline links, images and reference definitions. */
const linksOf = (markdown: string): Array<{ line: number; target: string }> =>
  proseLines(markdown).flatMap((raw, index) => {
    const line = withoutCodeSpans(raw);
    const inline = [...line.matchAll(/\]\(\s*<?([^()\s<>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
    const reference = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line)?.[1];
    return [...inline, ...(reference === undefined ? [] : [reference])].map((target) => ({ line: index + 1, target }));
  });

/** Whether a link leaves the repository: a scheme (`https:`, `mailto:`) or a protocol-relative `//host`. */
const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * The links of `file` (relative to `root`) that lead nowhere, each as `line: target (why)`.
 * `read` gives a repository file's text, undefined when there is no such file or folder.
 */
const brokenLinks = (root: string, file: string, read: (path: string) => string | undefined): string[] => {
  const text = read(file) ?? '';
  return linksOf(text).flatMap(({ line, target }) => {
    if (target === '' || isExternal(target)) return [];
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const absolute = pathPart === '' ? resolve(root, file) : resolve(root, dirname(file), pathPart);
    const path = relative(root, absolute);
    if (path.startsWith('..')) return [`${line}: ${target} (outside the repository)`];
    const content = pathPart === '' ? text : read(path);
    if (content === undefined) return [`${line}: ${target} (no such file)`];
    if (anchor === undefined || anchor === '') return [];
    if (!path.endsWith('.md')) return [`${line}: ${target} (an anchor into a file that is not Markdown)`];
    return anchorsOf(content).has(anchor) ? [] : [`${line}: ${target} (no heading #${anchor} in ${path})`];
  });
};

/** A repository file's text; '' for a folder; undefined when it does not exist. */
const readRepoFile = (path: string): string | undefined => {
  const absolute = join(ROOT, path);
  if (!existsSync(absolute)) return undefined;
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return '';
  }
};

describe('the documents', () => {
  it.each(DOCS)('docs/%s exists', (name) => {
    expect(existsSync(join(ROOT, 'docs', name))).toBe(true);
  });

  it.each(documents())('every relative link in %s resolves', (file) => {
    expect(brokenLinks(ROOT, file, readRepoFile)).toEqual([]);
  });
});

describe('the link check itself', () => {
  const files: Record<string, string> = {
    'README.md': [
      '# Order lookup bot',
      '## What it does',
      '## What it does',
      'See [ops](docs/operations.md#health-and-metrics), [the table](#what-it-does-1) and [code](src/).',
      'Gone: [a](docs/nowhere.md), [b](docs/operations.md#no-such-part), [c](#missing), [d](../outside.md).',
      'Not links: `[e](docs/nowhere.md)` and [f](https://example.com/x.md#y).',
      '```',
      '[g](docs/nowhere.md)',
      '```',
      '[ref]: docs/also-nowhere.md',
    ].join('\n'),
    'docs/operations.md': '# Operations\n## Health and metrics\nBack to the [README](../README.md#order-lookup-bot).',
    src: '',
  };
  const read = (path: string) => files[path];

  it('reports missing files, missing anchors and links out of the repository, and nothing else', () => {
    expect(brokenLinks('/repo', 'README.md', read)).toEqual([
      '5: docs/nowhere.md (no such file)',
      '5: docs/operations.md#no-such-part (no heading #no-such-part in docs/operations.md)',
      '5: #missing (no heading #missing in README.md)',
      '5: ../outside.md (outside the repository)',
      '10: docs/also-nowhere.md (no such file)',
    ]);
    expect(brokenLinks('/repo', 'docs/operations.md', read)).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(slugOf('Running it in Telegram')).toBe('running-it-in-telegram');
    expect(slugOf('Export to Excel: `/export`, limits & faults')).toBe('export-to-excel-export-limits--faults');
    expect(slugOf('Поиск заказов')).toBe('поиск-заказов');
    expect([...anchorsOf('# A\n## B\n## B\n```\n# C\n```')]).toEqual(['a', 'b', 'b-1']);
  });
});
