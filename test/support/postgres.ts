import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './bot-process.ts';

// A real PostgreSQL server for the tests, started from the server binaries on this machine
// (Debian's `postgresql` package: .ci/run installs it when initdb is missing) in a temporary
// directory, on a free loopback port, with fsync off. Root may not run the server: as root the
// server runs as the `postgres` user, as the package sets it up.

export type PostgresServer = {
  /** postgres://postgres@127.0.0.1:<port>/postgres: the superuser, trusted on loopback. */
  url: string;
  port: number;
  stop(): Promise<void>;
};

const binDir = (): string => {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  // Through the symlink (/usr/local/bin/initdb → /usr/lib/postgresql/15/bin/initdb): postgres beside it.
  if (onPath) return join(realpathSync(onPath), '..');
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error('No PostgreSQL server binaries (initdb) found: install them with `apt-get install -y postgresql` (.ci/run does).');
  }
  return join(root, newest, 'bin');
};

const asServerUser = process.getuid?.() === 0;
/** runuser is in /usr/sbin, which a CI shell may not have on PATH. */
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((path) => existsSync(path)) ?? 'runuser';
const command = (bin: string, args: string[]): [string, string[]] => (asServerUser ? [RUNUSER, ['-u', 'postgres', '--', bin, ...args]] : [bin, args]);

const ready = async (url: string, server: ChildProcess, log: () => string): Promise<void> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`PostgreSQL exited at start:\n${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not start in 30 s: ${String(error)}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
};

/** `settings`: more server settings (`-c name=value`), e.g. the benchmark's pg_stat_statements. */
export const startPostgres = async ({ maxConnections = 400, settings = {} }: { maxConnections?: number; settings?: Record<string, string> } = {}): Promise<PostgresServer> => {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'bot-postgres-'));
  if (asServerUser) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim()));
  const data = join(dir, 'data');
  const [initCmd, initArgs] = command(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.error?.message ?? (init.stderr || init.stdout)}`);
  }
  const port = await freePort();
  const [serverCmd, serverArgs] = command(join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
    '-c', `max_connections=${maxConnections}`, '-c', 'shared_buffers=64MB',
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ]);
  let output = '';
  // Its own process group: a signal reaches the server itself, not only runuser.
  const server = spawn(serverCmd, serverArgs, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  server.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  server.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await ready(url, server, () => output);
  } catch (error) {
    if (server.pid !== undefined) process.kill(-server.pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    async stop() {
      // SIGINT: the server's "fast" shutdown, disconnecting clients.
      const signal = (name: NodeJS.Signals) => {
        if (server.exitCode === null && server.pid !== undefined) process.kill(-server.pid, name);
      };
      signal('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
      signal('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

let databases = 0;

/** A new empty database on the server at `serverUrl`; its URL. */
export const createDatabase = async (serverUrl: string, prefix = 'bot'): Promise<string> => {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${(databases += 1)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
};
