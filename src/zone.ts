// Wall clocks in an IANA time zone, read through Intl (Node's ICU carries its own zone data).

export type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

export type Zone = {
  readonly name: string;
  wallClock: (moment: number) => WallClock;
};

const pad2 = (value: number): string => String(value).padStart(2, '0');

/** "2026-11-21", as the portal writes days. */
export const isoDay = (wall: WallClock): string => `${String(wall.year).padStart(4, '0')}-${pad2(wall.month)}-${pad2(wall.day)}`;

/** "14:05". */
export const clockTime = (wall: WallClock): string => `${pad2(wall.hour)}:${pad2(wall.minute)}`;

/** Russia's time zones, west to east: the buttons of /timezone and /settings (their order is in buttons' data: append only). */
export const RUSSIAN_ZONES = [
  'Europe/Kaliningrad',
  'Europe/Moscow',
  'Europe/Samara',
  'Asia/Yekaterinburg',
  'Asia/Omsk',
  'Asia/Novosibirsk',
  'Asia/Krasnoyarsk',
  'Asia/Irkutsk',
  'Asia/Yakutsk',
  'Asia/Vladivostok',
  'Asia/Magadan',
  'Asia/Kamchatka',
] as const;

const zones = new Map<string, Zone>();

/** The zone of an IANA name, in any spelling Intl accepts; made once per name. An unknown name throws a RangeError. */
export const zoneOf = (name: string): Zone => {
  let zone = zones.get(name);
  if (zone === undefined) {
    const intl = new Intl.DateTimeFormat('en-US', { timeZone: name, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
    // Offsets are whole minutes: one reading serves every moment of a minute (most answers ask for now's).
    let lastMinute = NaN;
    let last: WallClock | undefined;
    zone = {
      name,
      wallClock: (moment) => {
        const minute = Math.floor(moment / 60_000);
        if (minute === lastMinute && last !== undefined) return { ...last };
        const parts: Record<string, number> = {};
        for (const part of intl.formatToParts(moment)) parts[part.type] = Number(part.value);
        last = { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
        lastMinute = minute;
        return { ...last };
      },
    };
    zones.set(name, zone);
  }
  return zone;
};

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const HALF_DAY_MS = DAY_MS / 2;

/** A wall clock read as if in UTC: the offset of a zone is what a moment's reading differs by. */
const asUtc = (wall: WallClock): number => Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);

/**
 * The moment a wall clock in the zone shows `wall`: in a repeated hour the first of the two, in
 * a daylight-saving gap (a time the clocks skip) as far past the gap as the skip is long.
 */
export const momentOf = (zone: Zone, wall: WallClock): number => {
  const utc = asUtc(wall);
  const offsetAt = (moment: number) => asUtc(zone.wallClock(moment)) - moment;
  // The zone's offsets half a day either side: a change of the clocks lies between them.
  const candidates = [utc - offsetAt(utc - HALF_DAY_MS), utc - offsetAt(utc + HALF_DAY_MS)];
  const exact = candidates.filter((moment) => asUtc(zone.wallClock(moment)) === utc);
  return exact.length > 0 ? Math.min(...exact) : Math.max(...candidates);
};

/** The IANA name as Intl spells it ("asia/yekaterinburg" → "Asia/Yekaterinburg"); undefined for a name it does not know. */
export const canonicalZone = (name: string): string | undefined => {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name.trim() }).resolvedOptions().timeZone;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
};

/** The first moment after `after` at which the zone's wall clock shows `minuteOfDay` (0–1439). */
export const nextTimeOfDay = (zone: Zone, minuteOfDay: number, after: number): number => {
  const today = zone.wallClock(after);
  for (let days = 0; days <= 2; days += 1) {
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day) + days * DAY_MS);
    const wall = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 };
    const moment = momentOf(zone, wall);
    if (moment > after) return moment;
  }
  // Unreachable: two days on, the time of day has come round at least once.
  return after + DAY_MS - MINUTE_MS;
};

/** What a zone name may look like: "Europe/Moscow", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+5". */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;
const MAX_ZONE_NAME = 64;

/** An IANA zone name as someone typed it, in Intl's spelling; undefined for anything else (an offset, a typo, Mars/Base). */
export const parseZoneName = (text: string): string | undefined => {
  const name = text.trim();
  return name.length <= MAX_ZONE_NAME && ZONE_NAME.test(name) ? canonicalZone(name) : undefined;
};
