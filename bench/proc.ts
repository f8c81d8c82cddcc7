import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { toJavaScript } from './to-javascript.ts';
import { startArgs } from '../test/support/start-command.ts';

// The bot process: spawning it, its resident memory and its CPU time from /proc.

export const rssMb = (pid: number): number => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : NaN;
};

/**
 * The file-backed part of a process's resident memory, MB: pages of the node binary (its code,
 * ICU's data) and of shared libraries, read from disk and shared; the rest is anonymous memory
 * (V8's heap, malloc, stacks).
 */
export const rssFileMb = (pid: number): number => {
  const line = /RssFile:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : NaN;
};

const TICKS_PER_SECOND = 100;
/** User + system CPU time of the process so far, in ms. */
export const cpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
};

/** A TCP port free on loopback now: the bot's PORT. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export const machine = () => {
  const model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
  return { cores: cpus().length, node: process.version, cpu: model.trim() };
};

export type Child = { process: ChildProcess; stderr: () => string; stop(): Promise<number | null> };

/** The entry point `npm start` runs (dist/main.js, built from src/ by its prestart step: see bench/run.ts). */
export const botScript = (): string => startArgs().at(-1)!;

/**
 * node's flags in `npm start`, so both bots run with the V8 settings production runs with;
 * BENCH_NODE_FLAGS replaces them to try others ("" for node's defaults).
 */
export const nodeFlags = (): string[] =>
  process.env.BENCH_NODE_FLAGS === undefined ? startArgs().slice(0, -1) : process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean);

/**
 * A benchmark's own .ts bot (the floor and bare bots) as plain JavaScript beside it in .built/, so
 * that every bot runs without Node's TypeScript stripper (about 17 MB), as the bot itself does.
 */
const asJavaScript = (script: string): string => {
  if (!script.endsWith('.ts')) return script;
  const target = join(dirname(script), '.built', basename(script).replace(/\.ts$/, '.js'));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, toJavaScript(readFileSync(script, 'utf8'), script));
  return target;
};

/**
 * Spawns `node <flags> <script>` with only the environment given (and PATH, HOME): a variable
 * of the shell that runs the benchmark cannot change what is measured. Its standard error (the bot's log) goes to a file, not a pipe
 * the busy benchmark process would have to drain: a full pipe would block the bot's log writes.
 */
export const start = (script: string, env: Record<string, string>, logFile: string): Child => {
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeFlags(), asJavaScript(script)], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'ignore', log] });
  closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    stderr: () => readFileSync(logFile, 'utf8').slice(-20_000),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
};
