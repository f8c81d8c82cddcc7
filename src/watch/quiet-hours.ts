import { zoneOf } from '../zone.ts';

export type QuietHours = { from: number; to: number };

/** The hour (0–23) in `timeZone` at `now`. */
export const hourIn = (now: number, timeZone: string): number => zoneOf(timeZone).wallClock(now).hour;

/** Within [from, to) in TIME_ZONE; a range like 21–8 wraps midnight. */
export const isQuiet = (now: number, quiet: QuietHours | undefined, timeZone: string): boolean => {
  if (quiet === undefined) return false;
  const hour = hourIn(now, timeZone);
  return quiet.from < quiet.to ? hour >= quiet.from && hour < quiet.to : hour >= quiet.from || hour < quiet.to;
};
