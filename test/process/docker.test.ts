import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

describe('the Docker image', () => {
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
