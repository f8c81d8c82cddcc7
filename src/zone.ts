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

const zones = new Map<string, Zone>();

/** The zone of an IANA name, in any spelling Intl accepts; made once per name. An unknown name throws a RangeError. */
export const zoneOf = (name: string): Zone => {
  let zone = zones.get(name);
  if (zone === undefined) {
    const intl = new Intl.DateTimeFormat('en-US', { timeZone: name, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' });
    zone = {
      name,
      wallClock: (moment) => {
        const parts: Record<string, number> = {};
        for (const part of intl.formatToParts(moment)) parts[part.type] = Number(part.value);
        return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
      },
    };
    zones.set(name, zone);
  }
  return zone;
};
