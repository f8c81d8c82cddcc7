import { format, isValid, parse } from 'date-fns';
import { enUS, ru } from 'date-fns/locale';
import type { Locale } from './i18n.ts';

// Numbers, units and dates as sales staff read them (see the glossary). Plain text out: views
// escape it like any other text, because an unknown unit or an unreadable date is portal text.

export type Formatter = {
  readonly locale: Locale;
  /** Up to three decimals. */
  number: (value: number | null) => string;
  /** Always two decimals. */
  money: (value: number | null) => string;
  /** Up to three decimals. */
  tonnes: (value: number | null) => string;
  /** Up to two decimals. */
  metres: (value: number | null) => string;
  /** Whole numbers. */
  pieces: (value: number | null) => string;
  /** The unit for a SAP measure code; an unknown code is returned as it is. */
  unit: (measureCode: string) => string;
  /** "12,345 т": the number in the unit's precision, a no-break space, the unit. */
  quantity: (value: number | null, measureCode: string) => string;
  /** A portal timestamp as a date, with the time only when it is not midnight. */
  date: (timestamp: string | null) => string;
  isOpenEnded: (timestamp: string | null) => boolean;
};

export const EMPTY_VALUE = '—';
const NBSP = '\u00a0';

type UnitKind = 'tonnes' | 'metres' | 'pieces' | 'kilograms';

const UNIT_KINDS: Record<string, UnitKind> = {
  TO: 'tonnes',
  TNE: 'tonnes',
  T: 'tonnes',
  M: 'metres',
  MTR: 'metres',
  ST: 'pieces',
  PC: 'pieces',
  PCE: 'pieces',
  H87: 'pieces',
  KG: 'kilograms',
  KGM: 'kilograms',
};

const UNIT_NAMES: Record<Locale, Record<UnitKind, string>> = {
  ru: { tonnes: 'т', metres: 'м', pieces: 'шт', kilograms: 'кг' },
  en: { tonnes: 't', metres: 'm', pieces: 'pcs', kilograms: 'kg' },
};

const DATE_PATTERNS: Record<Locale, { date: string; dateTime: string }> = {
  ru: { date: 'dd.MM.yyyy', dateTime: 'dd.MM.yyyy HH:mm' },
  en: { date: 'd MMM yyyy', dateTime: 'd MMM yyyy, HH:mm' },
};

const DATE_LOCALES = { ru, en: enUS };

/** Far-future validity ends (9999-12-31 and the like) mean "no end". */
export const OPEN_ENDED_YEAR = 9000;

export const isOpenEnded = (timestamp: string | null): boolean => {
  const year = /^\s*(\d{4})-/.exec(timestamp ?? '')?.[1];
  return year !== undefined && Number(year) >= OPEN_ENDED_YEAR;
};

/** The portal's "YYYY-MM-DD HH:MM:SS", a bare date, or an ISO "T" form; anything else → null. */
export const parsePortalTimestamp = (timestamp: string): Date | null => {
  const text = timestamp.trim().replace('T', ' ');
  const pattern = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? 'yyyy-MM-dd'
    : /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(text)
      ? 'yyyy-MM-dd HH:mm'
      : /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)
        ? 'yyyy-MM-dd HH:mm:ss'
        : null;
  if (pattern === null) return null;
  // date-fns `parse` rejects impossible dates (2026-02-30) instead of rolling them over.
  const date = parse(text, pattern, new Date(0));
  return isValid(date) ? date : null;
};

const numberFormat = (locale: Locale, minimumFractionDigits: number, maximumFractionDigits: number) => {
  // signDisplay "negative": a value that rounds to zero never reads "-0".
  const intl = new Intl.NumberFormat(locale, { minimumFractionDigits, maximumFractionDigits, signDisplay: 'negative' });
  return (value: number | null): string => (value === null || !Number.isFinite(value) ? EMPTY_VALUE : intl.format(value));
};

const buildFormatter = (locale: Locale): Formatter => {
  const number = numberFormat(locale, 0, 3);
  const money = numberFormat(locale, 2, 2);
  const metres = numberFormat(locale, 0, 2);
  const pieces = numberFormat(locale, 0, 0);
  const byKind: Record<UnitKind, (value: number | null) => string> = {
    tonnes: number,
    metres,
    // A fractional quantity in pieces is shown as sent rather than rounded away.
    pieces: number,
    kilograms: number,
  };
  const kindOf = (measureCode: string): UnitKind | undefined => UNIT_KINDS[measureCode.trim().toUpperCase()];
  const unit = (measureCode: string): string => {
    const kind = kindOf(measureCode);
    return kind === undefined ? measureCode.trim() : UNIT_NAMES[locale][kind];
  };
  const patterns = DATE_PATTERNS[locale];

  return {
    locale,
    number,
    money,
    tonnes: number,
    metres,
    pieces,
    unit,
    quantity: (value, measureCode) => {
      const kind = kindOf(measureCode);
      const amount = (kind === undefined ? number : byKind[kind])(value);
      const name = unit(measureCode);
      return value === null || name === '' ? amount : `${amount}${NBSP}${name}`;
    },
    date: (timestamp) => {
      if (timestamp === null) return EMPTY_VALUE;
      const date = parsePortalTimestamp(timestamp);
      if (date === null) return timestamp;
      const midnight = date.getHours() === 0 && date.getMinutes() === 0 && date.getSeconds() === 0;
      return format(date, midnight ? patterns.date : patterns.dateTime, { locale: DATE_LOCALES[locale] });
    },
    isOpenEnded,
  };
};

const formatters = new Map<Locale, Formatter>();

/** One formatter per locale, built on first use: Intl.NumberFormat is costly to construct. */
export const createFormatter = (locale: Locale): Formatter => {
  let formatter = formatters.get(locale);
  if (formatter === undefined) {
    formatter = buildFormatter(locale);
    formatters.set(locale, formatter);
  }
  return formatter;
};
