import { isLocale, type Locale } from '../i18n.ts';
import { isPageSize, PAGE_SIZES, type PageSize } from '../query.ts';
import { storedQuery } from './query-store.ts';
import { canonicalZone } from '../zone.ts';
import type { WatchTarget } from './watch-store.ts';

// What every store refuses to write, whatever its backend: a caller's bug, not the user's input.

export const checkId = (id: number): number => {
  if (!Number.isSafeInteger(id)) throw new RangeError(`not a Telegram id: ${id}`);
  return id;
};

export const checkLocale = (locale: Locale): Locale => {
  if (!isLocale(locale)) throw new RangeError(`not a supported locale: ${String(locale)}`);
  return locale;
};

export const checkPageSize = (pageSize: PageSize): PageSize => {
  if (!isPageSize(pageSize)) throw new RangeError(`page size must be one of ${PAGE_SIZES.join(', ')}`);
  return pageSize;
};

export const checkTimeZone = (timeZone: string): string => {
  if (canonicalZone(timeZone) !== timeZone) throw new RangeError(`not an IANA time zone as Intl spells it: ${timeZone}`);
  return timeZone;
};

// A value this version does not know (say, written by a newer one) reads as unset.
export const readLocale = (value: unknown): Locale | undefined => (typeof value === 'string' && isLocale(value) ? value : undefined);
export const readPageSize = (value: unknown): PageSize | undefined => (typeof value === 'number' && isPageSize(value) ? value : undefined);
/** A zone this machine's Intl does not know (its ICU is older) reads as unset. */
export const readTimeZone = (value: unknown): string | undefined => (typeof value === 'string' && canonicalZone(value) !== undefined ? value : undefined);

export const checkTarget = (target: WatchTarget): WatchTarget => {
  if (!storedQuery.safeParse(target.query).success) throw new RangeError('not a query the bot can watch');
  if (target.sapId !== undefined && typeof target.sapId !== 'string') throw new RangeError('a SAP number is text');
  return target;
};
