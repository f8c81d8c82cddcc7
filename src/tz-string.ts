// The TZ string at the end of a TZif file (POSIX, with RFC 8536's extensions): the rule for every
// moment after the file's last change of offset, e.g. "CET-1CEST,M3.5.0,M10.5.0/3" (zone.ts).

/** Seconds east of UTC at a moment given in seconds since the epoch. */
export type OffsetAt = (seconds: number) => number;

const DAY = 86_400;
const epochDay = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day) / 1000 / DAY;
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The local day (days since the epoch) a rule names in `year`: Jn, n or Mm.w.d. */
type DayRule = (year: number) => number;

const parseDayRule = (text: string): DayRule | null => {
  let match = /^J(\d{1,3})$/.exec(text);
  if (match) {
    const n = Number(match[1]);
    if (n < 1 || n > 365) return null;
    // Day 1–365, February 29 never counted.
    return (year) => epochDay(year, 1, 1) + n - 1 + (isLeap(year) && n >= 60 ? 1 : 0);
  }
  match = /^(\d{1,3})$/.exec(text);
  if (match) {
    const n = Number(match[1]);
    return n > 365 ? null : (year) => epochDay(year, 1, 1) + n;
  }
  match = /^M(\d{1,2})\.(\d)\.(\d)$/.exec(text);
  if (!match) return null;
  const [month, week, weekday] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || week < 1 || week > 5 || weekday > 6) return null;
  return (year) => {
    const first = epochDay(year, month, 1);
    const firstWeekday = (first + 4) % 7; // 1970-01-01 was a Thursday
    let day = 1 + ((weekday - firstWeekday + 7) % 7) + (week - 1) * 7;
    const length = epochDay(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - first;
    while (day > length) day -= 7; // week 5: the last such weekday
    return first + day - 1;
  };
};

/** "[+-]hh[:mm[:ss]]" → seconds; hours up to 167 in a rule's time. */
const parseSeconds = (text: string, maxHours: number): number | null => {
  const match = /^([+-]?)(\d{1,3})(?::(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? 0);
  const seconds = Number(match[4] ?? 0);
  if (hours > maxHours || minutes > 59 || seconds > 59) return null;
  return (match[1] === '-' ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds);
};

const NAME = '(?:<[A-Za-z0-9+-]+>|[A-Za-z]{3,})';
const OFFSET = '[+-]?\\d{1,2}(?::\\d{2}(?::\\d{2})?)?';
const TRANSITION = '([^,/]+)(?:/([+-]?\\d{1,3}(?::\\d{2}(?::\\d{2})?)?))?';
const TZ_STRING = new RegExp(`^${NAME}(${OFFSET})(?:(${NAME})(${OFFSET})?(?:,${TRANSITION},${TRANSITION})?)?$`);

/** A TZ string such as "CET-1CEST,M3.5.0,M10.5.0/3" or "<+03>-3"; null when it cannot be read. */
export const parseTzString = (text: string): OffsetAt | null => {
  const match = TZ_STRING.exec(text);
  if (!match) return null;
  const [, stdText, dstName, dstText, startDay, startTime, endDay, endTime] = match;
  // POSIX offsets count hours west of Greenwich: "MSK-3" is UTC+3.
  const east = (text: string): number | null => {
    const west = parseSeconds(text, 24);
    return west === null ? null : 0 - west;
  };
  const std = east(stdText!);
  if (std === null) return null;
  if (dstName === undefined) return () => std;
  const dst = dstText === undefined ? std + 3600 : east(dstText);
  if (dst === null) return null;
  // A zone with a daylight name and no rules: the rules POSIX systems assume (the US ones).
  const start = parseDayRule(startDay ?? 'M3.2.0');
  const end = parseDayRule(endDay ?? 'M11.1.0');
  const startAt = startTime === undefined ? 7200 : parseSeconds(startTime, 167);
  const endAt = endTime === undefined ? 7200 : parseSeconds(endTime, 167);
  if (!start || !end || startAt === null || endAt === null) return null;
  return (seconds) => {
    const year = new Date((seconds + std) * 1000).getUTCFullYear();
    // The change to daylight time is given in standard time, the change back in daylight time.
    const dstFrom = start(year) * DAY + startAt - std;
    const dstUntil = end(year) * DAY + endAt - dst;
    const inDst = dstFrom < dstUntil ? seconds >= dstFrom && seconds < dstUntil : seconds < dstUntil || seconds >= dstFrom;
    return inDst ? dst : std;
  };
};
