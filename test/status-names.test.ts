import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStatusNames, NO_STATUS_NAMES, parseStatusNames, StatusNamesError } from '../src/status-names.ts';

const YAML = `
# the operator's names
types:
  ZSD_DOG:
    ru: Договор
    en: Contract
    statuses:
      "60": { ru: Подписан, en: Signed }
      15: { ru: На согласовании, en: Under approval }
  ZSDZNM: { ru: Заявка, en: Request }
statuses:
  "60": { ru: Готово, en: Done }
  "10": { ru: Черновик, en: Draft }
orders:
  production: { ru: Производство, en: In production }
  shipment_ready: { ru: Готов к отгрузке, en: Ready to ship }
`;

const failureOf = async (path: string, text: string): Promise<string> => {
  try {
    await parseStatusNames(path, text);
  } catch (error) {
    expect(error).toBeInstanceOf(StatusNamesError);
    return (error as Error).message;
  }
  throw new Error('it did not fail');
};

describe('STATUS_NAMES_FILE', () => {
  it('names a specification code by its type, else by the fallback for every type; never one the operator did not give', async () => {
    const names = await parseStatusNames('/etc/bot/statuses.yaml', YAML);
    expect(names.name('ru', 'specification', '60', 'ZSD_DOG')).toBe('Подписан');
    expect(names.name('en', 'specification', '60', 'ZSDZNM')).toBe('Done');
    expect(names.name('en', 'specification', '15', 'ZSD_DOG')).toBe('Under approval');
    expect(names.name('en', 'specification', '15', 'ZSDZNM')).toBeUndefined();
    expect(names.name('ru', 'specification', '70', 'ZSD_DOG')).toBeUndefined();
    expect(names.name('en', 'type', 'ZSDZNM')).toBe('Request');
    expect(names.name('en', 'type', 'ZSDZMP')).toBeUndefined();
    expect(names.name('en', 'order', 'shipment_ready')).toBe('Ready to ship');
    expect(NO_STATUS_NAMES.name('ru', 'order', 'production')).toBeUndefined();
  });

  it('maps a name typed in either language, in any case, to its codes', async () => {
    const names = await parseStatusNames('statuses.yml', YAML);
    expect(names.codesNamed('order', 'IN PRODUCTION')).toEqual(['production']);
    expect(names.codesNamed('order', 'готов  к отгрузке')).toEqual(['shipment_ready']);
    expect(names.codesNamed('specification', 'подписан')).toEqual(['60']);
    expect(names.codesNamed('specification', 'draft')).toEqual(['10']);
    expect(names.codesNamed('type', 'договор')).toEqual(['ZSD_DOG']);
    expect(names.codesNamed('order', 'отгружен')).toEqual([]);
    expect(names.named('specification').map((entry) => entry.code).sort()).toEqual(['10', '15', '60']);
  });

  it('reads the same shape from JSON', async () => {
    const names = await parseStatusNames('names.JSON', JSON.stringify({ statuses: { '20': { ru: 'Согласован', en: 'Approved' } } }));
    expect(names.name('en', 'specification', '20', 'ZSD_DOG')).toBe('Approved');
  });

  it.each([
    ['s.yaml', 'types: [', /^STATUS_NAMES_FILE s\.yaml: not valid YAML: /],
    ['s.json', '{"orders": ', /^STATUS_NAMES_FILE s\.json: not valid JSON: /],
    ['s.txt', '{}', /^STATUS_NAMES_FILE s\.txt: name a \.json, \.yaml or \.yml file$/],
    ['s.yaml', 'orders:\n  production: { ru: Производство }', /^STATUS_NAMES_FILE s\.yaml: orders\.production\.en: /],
    ['s.yaml', 'types:\n  ZSD_DOG: { ru: Договор, en: Contract, codes: {} }', /^STATUS_NAMES_FILE s\.yaml: types\.ZSD_DOG: .*codes/],
    ['s.yaml', 'colours: {}', /^STATUS_NAMES_FILE s\.yaml: the file: .*colours/],
    ['s.yaml', '- production', /^STATUS_NAMES_FILE s\.yaml: the file: /],
    ['s.json', '{"statuses": {"10": {"ru": " ", "en": "Draft"}}}', /^STATUS_NAMES_FILE s\.json: statuses\.10\.ru: a name is empty$/],
  ])('refuses %s holding %j, naming the file and the problem', async (path, text, message) => {
    expect(await failureOf(path, text)).toMatch(message);
  });

  it('reads the file named at start, and says why it cannot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'status-names-'));
    writeFileSync(join(dir, 'names.yaml'), YAML);
    expect((await loadStatusNames(join(dir, 'names.yaml'))).name('ru', 'type', 'ZSD_DOG')).toBe('Договор');
    expect(await loadStatusNames(undefined)).toBe(NO_STATUS_NAMES);
    await expect(loadStatusNames(join(dir, 'missing.yaml'))).rejects.toThrow(`STATUS_NAMES_FILE ${join(dir, 'missing.yaml')}: cannot read it (no such file)`);
  });
});
