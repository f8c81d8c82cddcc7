import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { z } from 'zod';
import type { Formatter } from './format.ts';
import type { Locale } from './i18n.ts';
import { readFailure } from './secret-files.ts';

// The operator's names of status codes (STATUS_NAMES_FILE), read and checked once at start: the
// portal does not publish what a specification's status code means (it depends on its status
// type), so the bot shows a name only where the operator gave one, and the code alone elsewhere.
// JSON, or YAML (the `yaml` package, loaded only for a .yaml or .yml file): the shape is the same.
//
//   types:                      # a status type → its names, and its codes' names
//     ZSD_DOG: { ru: Договор, en: Contract, statuses: { "60": { ru: Подписан, en: Signed } } }
//   statuses:                   # a code's names for every type that does not name it itself
//     "10": { ru: Черновик, en: Draft }
//   orders:                     # order status codes' names (the portal writes a Russian text)
//     production: { ru: Производство, en: In production }

const name = z.string().trim().min(1, 'a name is empty').max(100, 'a name is longer than 100 characters');
const names = z.strictObject({ ru: name, en: name });
const code = z.string().trim().min(1, 'a code is empty').max(64, 'a code is longer than 64 characters');
const codes = z.record(code, names);

const fileSchema = z.strictObject({
  types: z.record(code, names.extend({ statuses: codes.optional() })).optional(),
  statuses: codes.optional(),
  orders: codes.optional(),
});

type Names = z.infer<typeof names>;
export type StatusKind = 'order' | 'specification' | 'type';
/** The filters a status is given in. */
export type StatusField = 'STATUS' | 'STATUS_TYPE';
/** A status the bot knows: its code, the portal's text ('' for none), the operator's names. */
export type KnownStatus = { code: string; text: string; names?: Names };

export type StatusNames = {
  /** The operator's name of an order status, a specification status (of `type`) or a status type; undefined without one. */
  name(locale: Locale, kind: StatusKind, code: string, type?: string): string | undefined;
  /** The codes a name typed in either language means, in any case. */
  codesNamed(kind: StatusKind, typed: string): string[];
  /** Every code the operator named, with its names (a specification code's from the fallback or its first type). */
  named(kind: StatusKind): Array<{ code: string; names: Names }>;
};

/** The file is missing, unreadable or not of the documented shape: said with its path, exit status 2. */
export class StatusNamesError extends Error {
  readonly code = 'ERR_STATUS_NAMES_FILE';
  constructor(path: string, problem: string, options?: ErrorOptions) {
    super(`STATUS_NAMES_FILE ${path}: ${problem}`, options);
    this.name = 'StatusNamesError';
  }
}

const same = (text: string): string => text.trim().toLowerCase().replaceAll('ё', 'е').replace(/\s+/g, ' ');

const namesFrom = (file: z.infer<typeof fileSchema>): StatusNames => {
  const types = file.types ?? {};
  const fallback = file.statuses ?? {};
  const orders = file.orders ?? {};
  const namesOf = (kind: StatusKind, code: string, type?: string): Names | undefined => {
    if (kind === 'order') return orders[code];
    if (kind === 'type') return types[code];
    return (type === undefined ? undefined : types[type]?.statuses?.[code]) ?? fallback[code];
  };
  const named = (kind: StatusKind): Array<{ code: string; names: Names }> => {
    if (kind === 'order') return Object.entries(orders).map(([key, value]) => ({ code: key, names: value }));
    if (kind === 'type') return Object.entries(types).map(([key, value]) => ({ code: key, names: { ru: value.ru, en: value.en } }));
    const all = new Map(Object.entries(fallback));
    for (const type of Object.values(types)) for (const [key, value] of Object.entries(type.statuses ?? {})) if (!all.has(key)) all.set(key, value);
    return [...all].map(([key, value]) => ({ code: key, names: value }));
  };
  return {
    name: (locale, kind, code, type) => namesOf(kind, code.trim(), type?.trim())?.[locale],
    named,
    codesNamed(kind, typed) {
      const wanted = same(typed);
      const everyName = kind === 'specification' ? [...Object.entries(fallback), ...Object.values(types).flatMap((type) => Object.entries(type.statuses ?? {}))] : named(kind).map((entry) => [entry.code, entry.names] as const);
      return [...new Set(everyName.filter(([, value]) => same(value.ru) === wanted || same(value.en) === wanted).map(([key]) => key))];
    },
  };
};

/** No file: no names. */
export const NO_STATUS_NAMES: StatusNames = namesFrom({});

/** A formatter that names status codes as the operator does (made once per language: views cache by it). */
export const withStatusNames = (fmt: Formatter, names: StatusNames): Formatter =>
  names === NO_STATUS_NAMES ? fmt : { ...fmt, statusName: (kind, code, type) => names.name(fmt.locale, kind, code, type) };

const problemOf = (error: z.ZodError): string => {
  const issue = error.issues[0];
  if (issue === undefined) return 'not of the documented shape';
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the file';
  return `${where}: ${issue.message}${error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : ''}`;
};

/** The names in a file's text; `format` from its extension. Throws StatusNamesError. */
export const parseStatusNames = async (path: string, text: string): Promise<StatusNames> => {
  const format = extname(path).toLowerCase();
  let data: unknown;
  try {
    if (format === '.json') data = JSON.parse(text);
    else if (format === '.yaml' || format === '.yml') data = (await import('yaml')).parse(text);
    else throw new StatusNamesError(path, 'name a .json, .yaml or .yml file');
  } catch (error) {
    if (error instanceof StatusNamesError) throw error;
    throw new StatusNamesError(path, `not valid ${format === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) throw new StatusNamesError(path, problemOf(parsed.error));
  return namesFrom(parsed.data);
};

/** STATUS_NAMES_FILE read at start; no path: no names. Throws StatusNamesError. */
export const loadStatusNames = async (path: string | undefined, read = (file: string) => readFileSync(file, 'utf8')): Promise<StatusNames> => {
  if (path === undefined) return NO_STATUS_NAMES;
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    throw new StatusNamesError(path, `cannot read it (${readFailure(error)})`, { cause: error });
  }
  return parseStatusNames(path, text);
};
