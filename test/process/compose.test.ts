import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startHttpServer } from '../../src/app/http-server.ts';
import { CONFIG_VARIABLES, parseConfig } from '../../src/config.ts';
import { withSecretFiles } from '../../src/secret-files.ts';
import { ROOT } from '../support/start-command.ts';

// compose.yaml, the README's example of several replicas: what it sets must be what the bot reads,
// its secrets files, its settings .env, and its proxy public for the webhook alone.

type Service = { build?: string; environment?: Record<string, string>; image?: string; secrets?: string[]; stop_grace_period?: string };
const text = readFileSync(`${ROOT}compose.yaml`, 'utf8');
const compose = parse(text) as { services: Record<string, Service>; secrets?: Record<string, { file?: string }>; configs: Record<string, { content: string }> };
const bots = Object.entries(compose.services).filter(([, service]) => service.build === '.');

/** .env.example's settings. */
const example = Object.fromEntries(
  readFileSync(`${ROOT}.env.example`, 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

/** The value compose would give with .env.example's settings, `${NAME:-default}` filled in. */
const filled = (value: string): string =>
  value.replace(/\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g, (_match, name: string, kind?: string, fallback?: string) => example[name] || (kind === '-' ? (fallback ?? '') : ''));

/** `file` as a list of lines without comments: its entries. */
const entriesOf = (file: string): string[] =>
  readFileSync(`${ROOT}${file}`, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));

describe('compose.yaml', () => {
  it('runs two bot replicas built from this Dockerfile', () => {
    expect(bots.map(([name]) => name)).toEqual(['bot-1', 'bot-2']);
    expect(bots[0]?.[1]).toEqual(bots[1]?.[1]);
  });

  it('sets only variables the configuration schema knows', () => {
    const names = bots.flatMap(([, service]) => Object.keys(service.environment ?? {}));
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
  });

  it('gives the secrets as Docker secrets, files in secrets/, none as an environment variable (docker inspect shows those)', () => {
    const secretFiles = Object.entries(compose.secrets ?? {});
    expect(secretFiles.map(([name, { file }]) => [name, file])).toEqual(secretFiles.map(([name]) => [name, `./secrets/${name}`]));
    for (const [name, service] of Object.entries(compose.services)) {
      const environment = service.environment ?? {};
      expect(Object.keys(environment).filter((variable) => /TOKEN$|PASSWORD$|SECRET$|^DATABASE_URL$/.test(variable)), name).toEqual([]);
      for (const [variable, value] of Object.entries(environment).filter(([variable]) => variable.endsWith('_FILE'))) {
        const secret = /^\/run\/secrets\/([a-z_]+)$/.exec(value)?.[1];
        expect(secret, `${name}: ${variable}`).toBeDefined();
        expect(service.secrets, `${name}: ${variable}`).toContain(secret);
        expect(compose.secrets?.[secret!], secret).toBeDefined();
      }
    }
    expect(Object.keys(bots[0]?.[1].environment ?? {})).toEqual(expect.arrayContaining(['BOT_TOKEN_FILE', 'PORTAL_TOKEN_FILE', 'DATABASE_URL_FILE']));
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/postgres_password');
    expect(entriesOf('.gitignore')).toContain('secrets/');
    expect(entriesOf('.dockerignore')).toContain('secrets');
  });

  it('takes its settings from .env, which .env.example lists: nothing is generated at `up`, so a second `up` keeps the database password', () => {
    const interpolated = [...text.matchAll(/(?<!\$)\$\{([A-Z_]+)/g)].map((match) => match[1]!);
    expect(interpolated.length).toBeGreaterThan(2);
    expect([...new Set(interpolated)].filter((name) => !(name in example))).toEqual([]);
    // No secret passes through compose's own environment.
    expect(interpolated.filter((name) => /TOKEN|PASSWORD|SECRET/.test(name))).toEqual([]);
    expect(entriesOf('.gitignore')).toContain('.env');
  });

  it('gives each replica a configuration the bot accepts: PostgreSQL, a webhook, the secrets read from their files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compose-secrets-'));
    try {
      const contents: Record<string, string> = {
        bot_token: '123456789:AAEexampleexampleexampleexample\n',
        portal_token: 'portal-token\n',
        database_url: 'postgres://bot:pw@postgres:5432/bot\n',
      };
      for (const name of bots[0]?.[1].secrets ?? []) writeFileSync(join(dir, name), contents[name] ?? '');
      const env = Object.fromEntries(
        Object.entries(bots[0]?.[1].environment ?? {}).map(([name, value]) => [name, filled(String(value)).replace(/^\/run\/secrets\//, `${dir}/`)]),
      );
      // .env.example leaves who may use the bot to the operator (the bot refuses to start without it).
      const config = parseConfig(withSecretFiles({ ...env, ALLOWED_CHAT_IDS: '-1001234567890' }));
      expect(config.botToken).toBe('123456789:AAEexampleexampleexampleexample');
      expect(config.portal).toMatchObject({ kind: 'remote', url: 'https://portal.example.com', tokenFile: join(dir, 'portal_token') });
      expect(config.database?.url).toBe('postgres://bot:pw@postgres:5432/bot');
      expect(config.webhook).toEqual({ url: 'https://bot.example.com/telegram/webhook', secret: undefined });
      expect(config.port).toBe(8080);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has PostgreSQL and a reverse proxy that terminates TLS in front of both replicas', () => {
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.proxy?.image).toMatch(/^caddy:/);
    expect(compose.configs.caddyfile?.content).toMatch(/reverse_proxy bot-1:8080 bot-2:8080/);
  });
});

type Directive = { name: string; args: string[]; body: Directive[] };

/** A Caddyfile as a tree of directives (enough of its syntax for this one). */
const parseCaddyfile = (source: string): Directive[] => {
  const root: Directive[] = [];
  const open = [root];
  for (const raw of source.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') continue;
    if (line === '}') {
      open.pop();
      continue;
    }
    const opens = line.endsWith('{');
    const [name = '', ...args] = (opens ? line.slice(0, -1) : line).trim().split(/\s+/);
    const directive = { name, args, body: [] };
    open.at(-1)!.push(directive);
    if (opens) open.push(directive.body);
  }
  return root;
};

const all = (directives: Directive[]): Directive[] => directives.flatMap((directive) => [directive, ...all(directive.body)]);

describe("compose.yaml's proxy", () => {
  const [site, ...others] = parseCaddyfile(compose.configs.caddyfile?.content ?? '');
  const webhookPath = new URL(filled(bots[0]?.[1].environment?.WEBHOOK_URL ?? '')).pathname;
  /** What Caddy does with a request for `path`: the `handle` block that takes it (a path matcher, else the one without). */
  const route = (path: string): Directive[] => {
    const handles = site?.body.filter((directive) => directive.name === 'handle') ?? [];
    const matches = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`).test(path);
    return (handles.find((handle) => handle.args.length === 1 && matches(handle.args[0]!)) ?? handles.find((handle) => handle.args.length === 0))?.body ?? [];
  };

  it('passes the webhook path alone to the replicas: /metrics, /healthz and /readyz stay on the internal network', () => {
    expect(site?.name).toBe('{$$BOT_HOST}');
    expect(others).toEqual([]);
    expect(webhookPath).toBe('/telegram/webhook');
    const proxies = all(site?.body ?? []).filter((directive) => directive.name === 'reverse_proxy');
    expect(proxies).toHaveLength(1);
    expect(route(webhookPath)).toEqual([proxies[0]]);
    for (const path of ['/metrics', '/healthz', '/readyz', '/', `${webhookPath}/x`, `${webhookPath}x`, '/telegram']) {
      expect(route(path), path).toEqual([{ name: 'respond', args: ['404'], body: [] }]);
    }
  });

  it('sends posts only to a replica whose /healthz says it has started (not one waiting for the database or Telegram)', async () => {
    const settings = Object.fromEntries(all(site?.body ?? []).filter((directive) => directive.name.startsWith('health_')).map((directive) => [directive.name, directive.args.join(' ')]));
    expect(settings.health_uri).toBe('/healthz');
    const expected = new RegExp(settings.health_body?.replace(/^`|`$/g, '') ?? '^$');
    const bodies = [];
    for (const starting of [true, false]) {
      const server = await startHttpServer({ port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), metrics: { render: async () => '', contentType: 'text/plain; version=0.0.4; charset=utf-8' }, readiness: () => ({ ready: false, detail: {} }), starting });
      try {
        const response = await fetch(`http://127.0.0.1:${server.port}${settings.health_uri}`);
        expect(response.status).toBe(200);
        bodies.push(await response.text());
      } finally {
        await server.close(0);
      }
    }
    expect(bodies.map((body) => expected.test(body))).toEqual([false, true]);
  });
});
