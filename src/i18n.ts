import ru from '../locales/ru.json' with { type: 'json' };
import en from '../locales/en.json' with { type: 'json' };

// Locale strings are data (locales/*.json, nested objects). A plural string is a group of keys
// `name_one`, `name_few`, `name_many`, `name_other` chosen with Intl.PluralRules by `count`.
// Placeholders are `{name}`.

export const LOCALES = ['ru', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export type Params = Record<string, string | number>;
export type Translate = (key: string, params?: Params) => string;

type Messages = { [key: string]: string | Messages };
const catalogs: Record<Locale, Messages> = { ru, en };

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

const interpolate = (template: string, params: Params): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));

export const createTranslator = (locale: Locale): Translate => {
  const plural = new Intl.PluralRules(locale);
  return (key, params = {}) => {
    let message = lookup(catalogs[locale], key);
    if (message === undefined && typeof params.count === 'number') {
      message = lookup(catalogs[locale], `${key}_${plural.select(params.count)}`) ?? lookup(catalogs[locale], `${key}_other`);
    }
    if (typeof message !== 'string') throw new Error(`missing ${locale} string "${key}"`);
    return interpolate(message, params);
  };
};
