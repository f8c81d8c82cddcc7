export type QuietHours = { from: number; to: number };

const hourFormats = new Map<string, Intl.DateTimeFormat>();

/** The hour (0–23) in `timeZone` at `now`. */
export const hourIn = (now: number, timeZone: string): number => {
  let format = hourFormats.get(timeZone);
  if (!format) hourFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', hourCycle: 'h23' })));
  return Number(format.format(now));
};

/** Within [from, to) in TIME_ZONE; a range like 21–8 wraps midnight. */
export const isQuiet = (now: number, quiet: QuietHours | undefined, timeZone: string): boolean => {
  if (quiet === undefined) return false;
  const hour = hourIn(now, timeZone);
  return quiet.from < quiet.to ? hour >= quiet.from && hour < quiet.to : hour >= quiet.from || hour < quiet.to;
};
