import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAYERS, LAYERS_MARKERS, renderLayersSection, renderLayersTable, runLayersBench, type LayersResult } from '../../bench/layers.ts';

describe('the layers bench', () => {
  let result: LayersResult;
  beforeAll(async () => {
    result = await runLayersBench({ updates: 300, warmUp: 100, rounds: 1 });
  }, 60_000);

  it('installs createBot’s middleware in createBot’s order, up to the lookup feature', () => {
    const source = readFileSync(new URL('../../src/bot/create-bot.ts', import.meta.url), 'utf8');
    const body = source.slice(source.indexOf('export const createBot'));
    // Where each factory is called in createBot, one `bot.use` each or one list.
    const at = [...LAYERS.map((layer) => layer.name), 'createLookupFeature', 'createRecordFeature'].map((name) => body.search(new RegExp(`\\b${name}\\(`)));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('measures every chain on updates it answers, without failures', () => {
    expect(result.rows.map((row) => row.kind)).toEqual(['core', 'core', ...LAYERS.map(() => 'layer'), 'bot', 'runner', 'runner']);
    expect(result.warnings).toBe(0);
    // A mix: presses on the bot's own buttons and lookups.
    expect(result.presses).toBeGreaterThan(30);
    expect(result.presses).toBeLessThan(270);
    const [bare, ...answering] = result.rows;
    expect(bare!.runs[0]!.answersPerUpdate).toBe(0);
    for (const row of answering) expect(row.runs[0]!.answersPerUpdate, row.name).toBe(1);
    for (const row of result.rows) {
      expect(row.runs).toHaveLength(1);
      expect(row.runs[0]!.cpuUs, row.name).toBeGreaterThan(0);
      expect(row.runs[0]!.allocatedBytes, row.name).toBeGreaterThan(0);
    }
  });

  it('prints one table row per chain and the whole bot split in three', () => {
    const lines = renderLayersTable(result).split('\n');
    const table = lines.filter((line) => line.startsWith('|'));
    expect(table).toHaveLength(2 + result.rows.length);
    for (const line of table) expect(line.split(' | ')).toHaveLength(6);
    expect(table[2]).toMatch(/^\| Telegraf alone.* \| [\d.]+ \| {2}\| [\d.]+ \| {2}\| 0\.00 \|$/);
    expect(table[4]).toMatch(/^\| \+ updateMetrics \| [\d.]+ \| -?[\d.]+ \| [\d.]+ \| -?[\d.]+ \| 1\.00 \|$/);
    expect(lines.at(-1)).toMatch(/^The whole bot, [\d.]+ µs .* Telegraf itself [\d.]+ µs .* middleware chain -?[\d.]+ µs .* lookup feature, .* -?[\d.]+ µs/);
  });

  it('writes a section between its markers', () => {
    const section = renderLayersSection(result, 'npm run bench -- --layers');
    expect(section.startsWith(LAYERS_MARKERS.begin)).toBe(true);
    expect(section.endsWith(LAYERS_MARKERS.end)).toBe(true);
    expect(section).not.toContain('failed');
  });
});
