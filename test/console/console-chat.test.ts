import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startArgs } from '../support/start-command.ts';

// `npm start` with no configuration: the console chat on the demo portal, the same start command
// as the Dockerfile's. Driven through stdin like a person typing, ending with end of input.

/**
 * As `npm start` runs it, called from a directory of its own (npm's INIT_CWD), DATA_DIR inside
 * that; `files` are what it left there.
 */
const runConsole = (lines: string[], env: Record<string, string> = {}) => {
  const calledFrom = mkdtempSync(join(tmpdir(), 'console-'));
  return new Promise<{ code: number | null; stdout: string; stderr: string; calledFrom: string; files: string[] }>((resolve, reject) => {
    const child = spawn(process.execPath, startArgs(), {
      env: { PATH: process.env.PATH ?? '', LANG: 'en_US.UTF-8', INIT_CWD: calledFrom, DATA_DIR: join(calledFrom, 'data'), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const files = readdirSync(calledFrom, { recursive: true, encoding: 'utf8' }).sort();
      rmSync(calledFrom, { recursive: true, force: true });
      resolve({ code, stdout, stderr, calledFrom, files });
    });
    child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  });
};

describe('console chat', () => {
  it('starts with no configuration, answers commands from the demo portal, presses buttons by number', async () => {
    const { code, stdout, stderr } = await runConsole(['/start', '/spec ДП-77/2026', '7', '/order 0007300100', 'где 7300321?']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('demo data');
    expect(stdout).toContain('Specifications 1–5 of 8');
    expect(stdout).toMatch(/\[6\] 1\/2 {3}\[7\] ▶/);
    expect(stdout).toContain('(edited) Specifications 6–8 of 8');
    // One order found opens at once; a pasted number is read as /order's.
    expect(stdout).toContain('Order No. 0007300100 dated 18 Nov 2025');
    expect(stdout).toContain('Order No. 0007300321 dated 15 Mar 2026');
    expect(stdout).not.toMatch(/<\/?b>|&lt;|&amp;/);
  });

  it('shows a record as a rich message: its table in aligned columns, its copy button with what it copies, disabled ◀ in parentheses', async () => {
    const { code, stdout, stderr } = await runConsole(['/order 0007300100', '1', '/order status production']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/\nNo\. +Code +Material +Qty +Price +Total +Cur\.\n─── +─+/);
    expect(stdout).toMatch(/\n10 +10012345 +Труба 530х8 К52 ГОСТ 20295-85 +77\.662.t +120,500\.00 +9,358,271\.00 +RUB\n/);
    expect(stdout).toContain('[📋 0007300100 ⧉ 0007300100]');
    expect(stdout).toMatch(/\(◀\) {3}\[\d+\] 1\/\d+ {3}\[\d+\] ▶/);
  });

  it('saves an export into DATA_DIR/exports/, not where it was started, printing its path; stderr stays empty', async () => {
    const { code, stdout, stderr, calledFrom, files } = await runConsole(['/export spec ДП-77/2026']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const saved = files.filter((name) => name.endsWith('.xlsx'));
    expect(saved).toEqual([expect.stringMatching(/^data\/exports\/specifications-contract-DP-77-2026-\d{4}-\d{2}-\d{2}\.xlsx$/)]);
    expect(stdout).toContain(`📎 ${join(calledFrom, saved[0]!)}`);
  });

  it('makes the console’s user an admin: /stats and /users work there', async () => {
    const { code, stdout, stderr } = await runConsole(['/order 0007300100', '/stats', '/users']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('📊 Usage: today · 7 days · 30 days');
    expect(stdout).toContain('Lookups: 1 · 1 · 1');
    expect(stdout).toContain('  by command: 1 · 1 · 1');
    expect(stdout).toContain('Anyone can use the bot: ALLOW_ANYONE is on, or the bot asks the demo portal.');
    expect(stdout).toMatch(/Administrators \(ADMIN_USER_IDS, set in the environment\):\n• 100001; last seen \d\d:\d\d/);
  });

  it('speaks the configured default language', async () => {
    const { stdout } = await runConsole(['/order 0007300100'], { LANG: 'C.UTF-8', DEFAULT_LANGUAGE: 'ru' });
    expect(stdout).toContain('Заказ № 0007300100');
  });

  it('refuses to start on a bad configuration, naming the variable', async () => {
    const { code, stderr } = await runConsole([], { PAGE_SIZE: '7' });
    expect(code).toBe(2);
    expect(stderr).toContain('PAGE_SIZE');
  });
});
