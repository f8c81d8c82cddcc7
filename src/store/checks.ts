import { isLocale, type Locale } from '../i18n.ts';

// What every store refuses to write, whatever its backend: a caller's bug, not the user's input.

export const checkId = (id: number): number => {
  if (!Number.isSafeInteger(id)) throw new RangeError(`not a Telegram id: ${id}`);
  return id;
};

export const checkLocale = (locale: Locale): Locale => {
  if (!isLocale(locale)) throw new RangeError(`not a supported locale: ${String(locale)}`);
  return locale;
};
