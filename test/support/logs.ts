import { pino, type Logger } from 'pino';

/** A logger whose lines a test reads, each parsed, at `level` and above. */
export const captureLogs = (level: pino.Level = 'debug'): { logger: Logger; lines: Array<Record<string, unknown>> } => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
};
