import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { ROOT } from '../support/start-command.ts';

// No Docker engine runs here, so the image's promises are checked where they can be: the
// health check's own command run against a server, the port, the stop timeout, the context.

const dockerfile = readFileSync(`${ROOT}Dockerfile`, 'utf8');
const DOCKER_STOP_DEFAULT_MS = 10_000;

/** The exec-form command of the HEALTHCHECK instruction (continuation lines joined). */
const healthCheckCommand = (): string[] => {
  const joined = dockerfile.replace(/\\\n\s*/g, '');
  const json = /^HEALTHCHECK .*?CMD (\[.*\])$/m.exec(joined)?.[1];
  if (!json) throw new Error('the Dockerfile has no HEALTHCHECK in exec form');
  return JSON.parse(json) as string[];
};

/** Runs it as Docker would, with the image's PORT; resolves to its exit status. */
const runCheck = async (port: number): Promise<number | null> => {
  const [command, ...args] = healthCheckCommand();
  expect(command).toBe('node');
  const child = spawn(process.execPath, args, { env: { PORT: String(port) }, stdio: 'ignore', timeout: 10_000 });
  const [status] = (await once(child, 'exit')) as [number | null];
  return status;
};

/**
 * A directory holding what the Dockerfile's last stage copies into /app: a file from the context
 * is the project's own, one from the build stage's /app is the project's too (that stage copies
 * the project and builds dist/ as `npm start` does: vitest's set-up built it).
 */
const stageImageFiles = (): string => {
  const last = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  expect(last).toMatch(/^WORKDIR \/app$/m);
  const stage = mkdtempSync(join(tmpdir(), 'image-app-'));
  for (const [, from, source, target] of last.matchAll(/^COPY (?:--from=(\S+) )?(\S+) (\S+)$/gm)) {
    const path = from === undefined ? source! : source!.replace(/^\/app\//, '');
    expect(path, `COPY --from=${from} ${source}`).not.toMatch(/^\//);
    const destination = join(stage, target!.endsWith('/') ? join(target!, path.split('/').at(-1)!) : target!);
    mkdirSync(dirname(destination), { recursive: true });
    cpSync(join(ROOT, path), destination, { recursive: true });
  }
  return stage;
};

/** The image's CMD, run in `cwd` with this environment and standard input. */
const runCmd = (cwd: string, env: Record<string, string>, input: string) => {
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
  expect(cmd[0]).toBe('node');
  return spawnSync(process.execPath, cmd.slice(1), { cwd, env: { PATH: process.env.PATH ?? '', ...env }, input, encoding: 'utf8', timeout: 15_000 });
};

describe('the Docker image', () => {
  it('runs from dist/ alone: no node_modules, every chunk loads, the licences of what it bundles beside it', () => {
    const stage = stageImageFiles();
    try {
      expect(readdirSync(stage).sort()).toEqual(['dist', 'package.json']);
      expect(existsSync(join(stage, 'dist', 'THIRD_PARTY_LICENSES'))).toBe(true);
      // The console chat on the demo portal: the entry point, the console's and the demo's chunks.
      const chat = runCmd(stage, { DATA_DIR: join(stage, 'data'), LANG: 'en_US.UTF-8' }, '/order 0007300100\n');
      expect(chat.stderr).toBe('');
      expect(chat.stdout).toContain('Order No. 0007300100 dated 18 Nov 2025');
      expect(chat.status).toBe(0);
      // The chunks loaded only when used (PostgreSQL, the export) resolve their imports too.
      const chunks = readdirSync(join(stage, 'dist')).filter((name) => name.endsWith('.js'));
      const script = `for (const chunk of ${JSON.stringify(chunks)}) await import('./dist/' + chunk);`;
      const load = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: stage, encoding: 'utf8' });
      expect(load.stderr).toBe('');
      expect(load.status).toBe(0);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  });

  it('sets PORT, exposes it, and probes /healthz with node (the image has no curl)', async () => {
    const port = /^ENV PORT=(\d+)$/m.exec(dockerfile)?.[1];
    expect(port).toBeDefined();
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${port}$`, 'm'));
    const paths: string[] = [];
    let healthy = true;
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(healthy ? 200 : 503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port: live } = server.address() as AddressInfo;
    try {
      expect(await runCheck(live)).toBe(0);
      healthy = false;
      expect(await runCheck(live)).toBe(1);
      expect(paths).toEqual(['/healthz', '/healthz']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // Nothing listening: unhealthy, not a hang.
    expect(await runCheck(live)).toBe(1);
  });

  it('lets the default shutdown grace finish before docker stop sends SIGKILL', () => {
    const { shutdownGraceMs } = parseConfig({});
    // Three seconds are left for confirming the offset to Telegram (at most 1.5 s) and closing the store.
    expect(shutdownGraceMs + 3_000).toBeLessThanOrEqual(DOCKER_STOP_DEFAULT_MS);
    expect(dockerfile).not.toMatch(/^ENV SHUTDOWN_GRACE_MS/m);
  });

  it('keeps secrets and tooling out of the build context', () => {
    const ignored = readFileSync(`${ROOT}.dockerignore`, 'utf8').split('\n').map((line) => line.trim());
    for (const entry of ['.env', '.env.*', 'bench', '.ci', '.git', 'test', 'node_modules', 'data']) expect(ignored).toContain(entry);
  });
});
