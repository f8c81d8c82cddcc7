import { readFileSync } from 'node:fs';
import { parseTzString, type OffsetAt } from './tz-string.ts';

// Wall clocks in an IANA time zone, read from the system's tz database (TZif files, RFC 8536)
// rather than Intl: the first Intl date or number format makes V8 build ICU's set of every
// locale, about 7 MB resident for the life of the process (measured, README "Performance"). Intl
// stays the fallback for a name the files do not have (another spelling such as
// "europe/moscow", a system without tzdata), so every name Intl accepts still works.

/** Where Debian's tzdata (and macOS, and most Unix systems) keep the database. */
export const ZONEINFO_DIR = '/usr/share/zoneinfo';

export type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

export type Zone = {
  readonly name: string;
  /** Where the offsets come from: the tz database's file or Intl. */
  readonly source: 'tzif' | 'intl';
  wallClock: (moment: number) => WallClock;
};

const pad2 = (value: number): string => String(value).padStart(2, '0');

/** "2026-11-21", as the portal writes days. */
export const isoDay = (wall: WallClock): string => `${String(wall.year).padStart(4, '0')}-${pad2(wall.month)}-${pad2(wall.day)}`;

/** "14:05". */
export const clockTime = (wall: WallClock): string => `${pad2(wall.hour)}:${pad2(wall.minute)}`;

// --- TZif files ---

/** A TZif file's offsets; null for anything else, and for files with leap seconds (right/…). */
export const parseTzif = (data: Buffer): OffsetAt | null => {
  if (data.length < 44 || data.toString('latin1', 0, 4) !== 'TZif') return null;
  const version = data[4]!;
  const counts = (at: number) => {
    if (data.length < at + 44) return null;
    const [isut, isstd, leap, time, type, chars] = [0, 1, 2, 3, 4, 5].map((k) => data.readUInt32BE(at + 20 + k * 4));
    return { isut: isut!, isstd: isstd!, leap: leap!, time: time!, type: type!, chars: chars! };
  };
  const first = counts(0);
  if (!first || first.leap > 0 || first.type === 0) return null;
  const blockLength = (c: NonNullable<typeof first>, timeSize: number) =>
    c.time * timeSize + c.time + c.type * 6 + c.chars + c.leap * (timeSize + 4) + c.isstd + c.isut;
  let at = 44;
  let header = first;
  let timeSize = 4;
  if (version >= 0x32) {
    // Version 2 and later: a second header and block with 64-bit times, then the footer.
    const secondAt = 44 + blockLength(first, 4);
    const second = counts(secondAt);
    if (!second || data.toString('latin1', secondAt, secondAt + 4) !== 'TZif' || second.leap > 0 || second.type === 0) return null;
    at = 44 + blockLength(first, 4) + 44;
    header = second;
    timeSize = 8;
  }
  if (data.length < at + blockLength(header, timeSize)) return null;
  const times = new Float64Array(header.time);
  for (let k = 0; k < header.time; k += 1) times[k] = timeSize === 8 ? Number(data.readBigInt64BE(at + k * 8)) : data.readInt32BE(at + k * 4);
  const indexes = data.subarray(at + header.time * timeSize, at + header.time * (timeSize + 1));
  const typesAt = at + header.time * (timeSize + 1);
  const offsets = Array.from({ length: header.type }, (_, k) => data.readInt32BE(typesAt + k * 6));
  if (indexes.some((index) => index >= offsets.length)) return null;
  let footer: OffsetAt | null = null;
  if (timeSize === 8) {
    const footerAt = at + blockLength(header, 8);
    const end = data.indexOf(0x0a, footerAt + 1);
    if (data[footerAt] !== 0x0a || end < 0) return null;
    const text = data.toString('latin1', footerAt + 1, end);
    if (text !== '') {
      footer = parseTzString(text);
      if (!footer) return null;
    }
  }
  const count = times.length;
  return (seconds) => {
    if (count === 0) return footer ? footer(seconds) : offsets[0]!;
    if (seconds < times[0]!) return offsets[0]!;
    if (footer && seconds >= times[count - 1]!) return footer(seconds);
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (times[middle]! <= seconds) low = middle;
      else high = middle - 1;
    }
    return offsets[indexes[low]!]!;
  };
};

// --- Zones ---

// Names as the tz database writes them; no dots, so no way out of the directory. posix/ and
// right/ are copies (right/ counts leap seconds), the others are not zones.
const ZONE_NAME = /^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/;
const NOT_ZONES = /^(?:posix\/|right\/|localtime$|posixrules$|Factory$)/;

const readTzif = (name: string, directory: string): OffsetAt | null => {
  if (!ZONE_NAME.test(name) || NOT_ZONES.test(name)) return null;
  try {
    return parseTzif(readFileSync(`${directory}/${name}`));
  } catch {
    return null;
  }
};

const tzifZone = (name: string, offsetAt: OffsetAt): Zone => ({
  name,
  source: 'tzif',
  wallClock: (moment) => {
    const local = new Date(moment + offsetAt(Math.floor(moment / 1000)) * 1000);
    return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(), hour: local.getUTCHours(), minute: local.getUTCMinutes() };
  },
});

/** Throws a RangeError for a name Intl does not know either. */
const intlZone = (name: string): Zone => {
  const intl = new Intl.DateTimeFormat('en-US', {
    timeZone: name,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  return {
    name,
    source: 'intl',
    wallClock: (moment) => {
      const parts: Record<string, number> = {};
      for (const part of intl.formatToParts(moment)) parts[part.type] = Number(part.value);
      return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
    },
  };
};

const zones = new Map<string, Zone>();

/**
 * The zone of an IANA name, from the tz database in `directory`, else from Intl; made once per
 * name. An unknown name throws a RangeError.
 */
export const zoneOf = (name: string, directory: string = ZONEINFO_DIR): Zone => {
  const key = `${directory}\n${name}`;
  let zone = zones.get(key);
  if (zone === undefined) {
    const offsetAt = readTzif(name, directory);
    zone = offsetAt ? tzifZone(name, offsetAt) : intlZone(name);
    zones.set(key, zone);
  }
  return zone;
};
