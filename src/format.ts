import type { Locale } from './i18n.ts';
import { remembered } from './remembered.ts';
import { clockTime, isoDay, zoneOf } from './zone.ts';

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
  /** The IANA time zone that `day`, `time` and `dateTime` read a moment in. */
  readonly timeZone: string;
  /** A moment's calendar day in the formatter's time zone, as the portal writes days: "2026-11-21". */
  day: (moment: Date) => string;
  /** A moment's time of day in the formatter's time zone: "14:05". */
  time: (moment: Date) => string;
  /** "14:05" when the moment falls on the same day as `now` in the time zone, else with the date: "21.11.2026 14:05". */
  dateTime: (moment: Date, now: Date) => string;
  /** The operator's name of a status code (STATUS_NAMES_FILE, src/status-names.ts); undefined without one. */
  statusName: (kind: 'order' | 'specification' | 'type', code: string, type?: string) => string | undefined;
};

/** Where sales staff are; the server may well run in UTC. */
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';

export const EMPTY_VALUE = '—';
const NBSP = '\u00a0';

export type UnitKind = 'tonnes' | 'metres' | 'pieces' | 'kilograms';

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

/** What a SAP measure code measures, undefined for a code the bot does not know. */
export const unitKindOf = (measureCode: string): UnitKind | undefined => UNIT_KINDS[measureCode.trim().toUpperCase()];

const UNIT_NAMES: Record<Locale, Record<UnitKind, string>> = {
  ru: { tonnes: 'т', metres: 'м', pieces: 'шт', kilograms: 'кг' },
  en: { tonnes: 't', metres: 'm', pieces: 'pcs', kilograms: 'kg' },
};

// Dates are written here rather than by Intl, whose month names and separators change with the
// ICU version: ru "15.03.2026 14:30", en "15 Mar 2026, 14:30". beforeTime: what goes between the
// date and the time.
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad2 = (value: number): string => String(value).padStart(2, '0');
// As date-fns wrote "yyyy": four digits at least, and no year 0 (it reads as 1).
const year = (date: Date): string => String(Math.max(1, date.getUTCFullYear())).padStart(4, '0');
// Portal dates are wall-clock readings, held as UTC (parsePortalTimestamp).
const DATE_PATTERNS: Record<Locale, { date: (date: Date) => string; beforeTime: string }> = {
  ru: { date: (date) => `${pad2(date.getUTCDate())}.${pad2(date.getUTCMonth() + 1)}.${year(date)}`, beforeTime: ' ' },
  en: { date: (date) => `${date.getUTCDate()} ${EN_MONTHS[date.getUTCMonth()]} ${year(date)}`, beforeTime: ', ' },
};

type ZonedParts = { day: string; time: string };

/** A moment's calendar day ("2026-11-21") and time of day ("14:05") as read on a wall clock in the zone. */
const zonedReader = (timeZone: string) => {
  const zone = zoneOf(timeZone);
  // Answers from the portal cache share their fetch time: each moment is read once.
  const read = remembered((moment: number): ZonedParts => {
    const wall = zone.wallClock(moment);
    return { day: isoDay(wall), time: clockTime(wall) };
  }, 1_024);
  return (moment: Date): ZonedParts => read(moment.getTime());
};

/** Far-future validity ends (9999-12-31 and the like) mean "no end". */
export const OPEN_ENDED_YEAR = 9000;

export const isOpenEnded = (timestamp: string | null): boolean => {
  const year = /^\s*(\d{4})-/.exec(timestamp ?? '')?.[1];
  return year !== undefined && Number(year) >= OPEN_ENDED_YEAR;
};

/**
 * The portal's "YYYY-MM-DD HH:MM:SS", a bare date, or an ISO "T" form; anything else → null. The
 * portal names no zone: the reading is kept as written, in the Date's UTC fields (getUTCHours…),
 * so that neither the server's zone nor its daylight-saving gaps can shift it.
 */
export const parsePortalTimestamp = (timestamp: string): Date | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(timestamp.trim());
  if (match === null) return null;
  const [year, month, day, hours = 0, minutes = 0, seconds = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const date = new Date(Date.UTC(year!, month! - 1, day!, hours, minutes, seconds));
  date.setUTCFullYear(year!, month! - 1, day!); // years 0–99 are not 1900–1999
  // An impossible date (2026-02-30) is rejected instead of rolled over into the next month.
  const exact = date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
  return exact ? date : null;
};

const numberFormat = (locale: Locale, minimumFractionDigits: number, maximumFractionDigits: number) => {
  // signDisplay "negative": a value that rounds to zero never reads "-0".
  const intl = new Intl.NumberFormat(locale, { minimumFractionDigits, maximumFractionDigits, signDisplay: 'negative' });
  return (value: number | null): string => (value === null || !Number.isFinite(value) ? EMPTY_VALUE : intl.format(value));
};

const buildFormatter = (locale: Locale, timeZone: string): Formatter => {
  const number = numberFormat(locale, 0, 3);
  const money = numberFormat(locale, 2, 2);
  const metres = numberFormat(locale, 0, 2);
  // Counts of records (the «1–5 из 23» of every results page) repeat: each is formatted once.
  const pieces = remembered(numberFormat(locale, 0, 0), 4_096);
  const byKind: Record<UnitKind, (value: number | null) => string> = {
    tonnes: number,
    metres,
    // A fractional quantity in pieces is shown as sent rather than rounded away.
    pieces: number,
    kilograms: number,
  };
  const kindOf = unitKindOf;
  const unit = (measureCode: string): string => {
    const kind = kindOf(measureCode);
    return kind === undefined ? measureCode.trim() : UNIT_NAMES[locale][kind];
  };
  const patterns = DATE_PATTERNS[locale];
  const zoned = zonedReader(timeZone);
  const formatDate = (timestamp: string): string => {
    const parsed = parsePortalTimestamp(timestamp);
    if (parsed === null) return timestamp;
    const midnight = parsed.getUTCHours() === 0 && parsed.getUTCMinutes() === 0 && parsed.getUTCSeconds() === 0;
    const day = patterns.date(parsed);
    return midnight ? day : `${day}${patterns.beforeTime}${pad2(parsed.getUTCHours())}:${pad2(parsed.getUTCMinutes())}`;
  };
  // A page repeats the same few dates (order dates, validity ends), and a record in full builds
  // its lists more than once to fit them into parts: each date is formatted once.
  const formatted = remembered(formatDate, 4_096);
  const date = (timestamp: string | null): string => (timestamp === null ? EMPTY_VALUE : formatted(timestamp));

  return {
    locale,
    statusName: () => undefined,
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
    date,
    isOpenEnded,
    timeZone,
    day: (moment) => zoned(moment).day,
    time: (moment) => zoned(moment).time,
    dateTime: (moment, now) => {
      const { day, time } = zoned(moment);
      if (day === zoned(now).day) return time;
      // The day is written like a portal date, so it reads exactly as the dates in the cards do.
      return `${date(day)}${patterns.beforeTime}${time}`;
    },
  };
};

const formatters = new Map<string, Formatter>();

/** One formatter per locale and time zone, built on first use. An unknown time zone throws a RangeError. */
export const createFormatter = (locale: Locale, timeZone: string = DEFAULT_TIME_ZONE): Formatter => {
  const key = `${locale} ${timeZone}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = buildFormatter(locale, timeZone);
    formatters.set(key, formatter);
  }
  return formatter;
};
