import ru from '../locales/ru.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };

// Locale strings are data (locales/*.json, nested objects). A plural string is a group of keys
// `name_one`, `name_few`, `name_many`, `name_other` chosen by `count` with CLDR's rules (Intl.PluralRules).
// Placeholders are `{name}`.

export const LOCALES = ['ru', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export type Params = Record<string, string | number>;
export type Translate = (key: string, params?: Params) => string;

type Messages = { [key: string]: string | Messages };
const catalogs: Record<Locale, Messages> = { ru, en };

/** One of something per locale, made once: translators, formatters. */
export const perLocale = <T>(make: (locale: Locale) => T): Record<Locale, T> =>
  Object.fromEntries(LOCALES.map((locale) => [locale, make(locale)])) as Record<Locale, T>;

export const isLocale = (value: string): value is Locale => (LOCALES as readonly string[]).includes(value);

/** Telegram's `language_code` ("ru", "ru-RU", "en-GB", absent) → a supported locale. */
export const resolveLocale = (languageCode: string | undefined, fallback: Locale): Locale => {
  const base = languageCode?.toLowerCase().split(/[-_]/)[0] ?? '';
  return isLocale(base) ? base : fallback;
};

const lookup = (messages: Messages, key: string): string | Messages | undefined =>
  key.split('.').reduce<string | Messages | undefined>(
    (node, part) => (node === undefined || typeof node === 'string' ? undefined : node[part]),
    messages,
  );

/** A template split at its placeholders: literal text at even indexes, names at odd ones. */
type Compiled = readonly string[];
const compile = (template: string): Compiled => template.split(/\{(\w+)\}/);

const interpolate = (template: Compiled, params: Params): string => {
  let text = template[0]!;
  for (let k = 1; k < template.length; k += 2) {
    const name = template[k]!;
    text += (name in params ? String(params[name]) : `{${name}}`) + template[k + 1]!;
  }
  return text;
};

const pluralRules = perLocale((locale) => new Intl.PluralRules(locale));

export const createTranslator = (locale: Locale): Translate => {
  // Keys are few and strings are immutable data: each is looked up and split once.
  const compiled = new Map<string, Compiled | null>();
  const find = (key: string): Compiled | null => {
    let found = compiled.get(key);
    if (found === undefined) {
      const message = lookup(catalogs[locale], key);
      found = typeof message === 'string' ? compile(message) : null;
      compiled.set(key, found);
    }
    return found;
  };
  return (key, params = {}) => {
    let message = find(key);
    if (message === null && typeof params.count === 'number') {
      message = find(`${key}_${pluralRules[locale].select(params.count)}`) ?? find(`${key}_other`);
    }
    if (message === null) throw new Error(`missing ${locale} string "${key}"`);
    return interpolate(message, params);
  };
};
