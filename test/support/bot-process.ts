import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { startArgs } from './start-command.ts';

// Real bot processes, started as `npm start` starts src/main.ts, configured by their environment
// and logging JSON on stderr: for the process tests and the benchmark.

export type LogLine = Record<string, unknown>;

export type BotProcess = {
  /** The HTTP port (PORT) the process was given. */
  port: number;
  /** stderr lines that are JSON objects, in order. */
  lines: LogLine[];
  /** stderr lines that are not JSON objects. */
  garbage: string[];
  stderr: () => string;
  /** The first log line (past or future) that matches; rejects when the process exits first or after timeoutMs. */
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** True until the process has exited. */
  alive(): boolean;
  child: ChildProcessByStdio<null, Readable, Readable>;
};

/** A TCP port free at the moment of asking. */
export const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

export type SpawnOptions = {
  /** The whole environment but PATH and PORT (set here unless given). */
  env: Record<string, string>;
  /** Resolve once the process logs "receiving updates" (default true). */
  waitUntilReceiving?: boolean;
  /** How long to wait for it; default 15 s. */
  startTimeoutMs?: number;
};

export const spawnBot = async ({ env, waitUntilReceiving = true, startTimeoutMs = 15_000 }: SpawnOptions): Promise<BotProcess> => {
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT);
  const child = spawn(process.execPath, startArgs(), {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const garbage: string[] = [];
  const watchers = new Set<() => void>();
  let raw = '';
  let partial = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => {
    raw += chunk.toString();
    partial += chunk.toString();
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const text of complete.filter(Boolean)) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) lines.push(parsed as LogLine);
        else garbage.push(text);
      } catch {
        garbage.push(text);
      }
    }
    for (const watcher of [...watchers]) watcher();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => {
      resolve({ code, signal, at: performance.now() });
      for (const watcher of [...watchers]) watcher();
    }),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const bot: BotProcess = {
    port,
    lines,
    garbage,
    stderr: () => raw,
    child,
    exited,
    alive,
    waitForLog: (predicate, timeoutMs = 8000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = lines.find(predicate);
          if (found) return done(() => resolve(found));
          if (!alive()) done(() => reject(new Error(`the bot exited; stderr:\n${raw}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`no such log line within ${timeoutMs} ms; stderr:\n${raw}`))), timeoutMs);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          watchers.delete(check);
          settle();
        };
        watchers.add(check);
        check();
      }),
  };
  if (waitUntilReceiving) {
    try {
      await bot.waitForLog((line) => line.msg === 'receiving updates', startTimeoutMs);
    } catch (error) {
      if (alive()) child.kill('SIGKILL');
      throw error;
    }
  }
  return bot;
};

/** Kills what is still running (SIGKILL) and waits for every exit: for afterEach. */
export const killAll = async (bots: BotProcess[]): Promise<void> => {
  for (const bot of bots) if (bot.alive()) bot.child.kill('SIGKILL');
  await Promise.all(bots.map((bot) => bot.exited));
};

/** Sends SIGTERM and resolves with the exit. */
export const terminate = async (bot: BotProcess) => {
  bot.child.kill('SIGTERM');
  return bot.exited;
};
