import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// dist/ carries the code of the packages it bundles, so it carries their licences too: the image
// and a production install ship dist/ without node_modules. Written by scripts/build.ts from the
// modules rolldown reports it bundled.

export const NOTICE_FILE = 'THIRD_PARTY_LICENSES';

/** The package directory (up to and including its last node_modules/[@scope/]name) of a bundled file. */
const packageRootOf = (file: string): string | undefined => /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file)?.[1];

/** LICENSE, LICENCE, COPYING and NOTICE files, with any ending (.md, .txt, -MIT). */
const LICENSE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

type Package = { name: string; version: string; license: string | undefined; texts: string[] };

const readPackage = (root: string): Package => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: string; version?: string; license?: unknown; licenses?: unknown };
  // Old packages list `licenses: [{ type }]` instead.
  const listed = Array.isArray(manifest.licenses) ? manifest.licenses.map((entry: { type?: unknown }) => entry.type).filter((type) => typeof type === 'string') : [];
  const files = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && LICENSE_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  return {
    name: manifest.name ?? root,
    version: manifest.version ?? '?',
    license: typeof manifest.license === 'string' ? manifest.license : listed.length > 0 ? listed.join(' OR ') : undefined,
    texts: files.map((name) => readFileSync(join(root, name), 'utf8').trim()),
  };
};

/** The notice for the packages whose files are among `moduleIds` (our own modules are left out). */
export const thirdPartyNotice = (moduleIds: Iterable<string>): string => {
  const roots = new Set<string>();
  for (const id of moduleIds) {
    const root = packageRootOf(id);
    if (root !== undefined) roots.add(root);
  }
  const packages = [...roots].map(readPackage).sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  const rule = '-'.repeat(80);
  const sections = packages.map(({ name, version, license, texts }) => {
    const body =
      texts.length > 0 ? texts.join('\n\n') : license ? `The package holds no licence file; its package.json names the licence: ${license}.` : 'The package holds no licence file and names no licence.';
    return `${rule}\n${name} ${version}${license ? ` (${license})` : ''}\n\n${body}`;
  });
  const head = `The bot's files in dist/ include code from these ${packages.length} packages, under the licences below.`;
  return `${[head, ...sections].join('\n\n')}\n`;
};
