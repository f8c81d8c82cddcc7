import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, parseConfig } from '../../src/config.ts';
import { ROOT } from '../support/start-command.ts';

// compose.yaml, the README's example of several replicas: what it sets must be what the bot reads.

type Service = { build?: string; environment?: Record<string, string>; image?: string; stop_grace_period?: string };
const compose = parse(readFileSync(`${ROOT}compose.yaml`, 'utf8')) as { services: Record<string, Service> };
const bots = Object.entries(compose.services).filter(([, service]) => service.build === '.');

/** The value compose would give with every `${NAME:?}` / `${NAME:-default}` filled in. */
const filled = (value: string): string =>
  value.replace(/\$\{([A-Z_]+)(?::[?-]([^}]*))?\}/g, (_match, name: string, fallback?: string) =>
    fallback !== undefined && fallback !== '' ? fallback : ({ BOT_TOKEN: '123456789:AAEexampleexampleexampleexample', PORTAL_URL: 'https://portal.example.com', BOT_HOST: 'bot.example.com', WEBHOOK_SECRET: 'secret_123', POSTGRES_PASSWORD: 'pw', PORTAL_TOKEN: 'token', ALLOWED_CHAT_IDS: '-100123' }[name] ?? ''),
  );

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

  it('gives each replica a configuration the bot accepts: PostgreSQL, a webhook with a fixed secret', () => {
    const env = Object.fromEntries(Object.entries(bots[0]?.[1].environment ?? {}).map(([name, value]) => [name, filled(String(value))]));
    const config = parseConfig(env);
    expect(config.database?.url).toMatch(/^postgres:\/\/bot:pw@postgres:5432\/bot$/);
    expect(config.webhook).toEqual({ url: 'https://bot.example.com/telegram/webhook', secret: 'secret_123' });
    expect(config.port).toBe(8080);
  });

  it('has PostgreSQL and a reverse proxy that terminates TLS in front of both replicas', () => {
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    const caddyfile = readFileSync(`${ROOT}compose.yaml`, 'utf8');
    expect(compose.services.proxy?.image).toMatch(/^caddy:/);
    expect(caddyfile).toMatch(/reverse_proxy bot-1:8080 bot-2:8080/);
  });
});
