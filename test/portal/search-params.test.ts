import { describe, expect, it } from 'vitest';
import { buildSearchParams } from '../../src/portal/search-params.ts';

describe('buildSearchParams', () => {
  it('encodes bracket keys and always sends limit and offset', () => {
    const params = buildSearchParams({ resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'Труба 530х8' }, { limit: 5, offset: 10 });
    expect(params.toString()).toBe('POSITION%5BMATERIAL_NAME%5D=%D0%A2%D1%80%D1%83%D0%B1%D0%B0+530%D1%858&limit=5&offset=10');
  });

  it('keeps user text a value: it cannot add or change parameters', () => {
    const params = buildSearchParams({ resource: 'order', filter: 'SAP_ID', value: '1&limit=1000#x=y' }, { limit: 5, offset: 0 });
    expect([...params.entries()]).toEqual([
      ['SAP_ID', '1&limit=1000#x=y'],
      ['limit', '5'],
      ['offset', '0'],
    ]);
  });

  it('writes date filters in the one chosen form', () => {
    const params = buildSearchParams({ resource: 'specification', filter: 'ORDER[DATE_ORDER]', value: '2026-03-15' }, { limit: 20, offset: 0 });
    expect(params.get('ORDER[DATE_ORDER]')).toBe('2026-03-15');
  });

  it('checks limit and offset before anything is sent', () => {
    const query = { resource: 'order', filter: 'SAP_ID', value: '1' } as const;
    expect(() => buildSearchParams(query, { limit: 1000 as 5, offset: 0 })).toThrow(RangeError);
    expect(() => buildSearchParams(query, { limit: 5, offset: -1 })).toThrow(RangeError);
    expect(() => buildSearchParams(query, { limit: 5, offset: 1.5 })).toThrow(RangeError);
  });
});
