import { pino } from 'pino';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import type { Store } from '../../src/store/store.ts';

// Two PostgreSQL replicas on one database, as settings-replicas and watch-replicas tests open
// them: the logger's lines kept, so a test can tell when the listener lost and found its connection.

export type Line = { msg: string; level: number };

/** Long enough for the test to act while the listener is down. */
export const RECONNECT_MS = 1_500;

export const openReplica = async (url: string, lines: Line[] = []): Promise<Store> =>
  openPostgresStore({
    url,
    poolSize: 2,
    logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) }),
    listenBackoff: { baseMs: RECONNECT_MS, maxMs: RECONNECT_MS, random: () => 1 },
  });

/** How many times the listener said changes are heard again, or unheard. */
export const heard = (lines: Line[]) => lines.filter((line) => line.msg.startsWith('settings changes are heard')).length;
export const unheard = (lines: Line[]) => lines.filter((line) => line.msg.startsWith('settings changes are unheard')).length;
