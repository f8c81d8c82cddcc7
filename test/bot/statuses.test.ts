import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createStatuses } from '../../src/bot/statuses.ts';
import type { Results } from '../../src/portal/client.ts';
import { parseStatusNames } from '../../src/status-names.ts';
import { StoreUnavailableError } from '../../src/store/errors.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { StatusStore } from '../../src/store/store.ts';
import { makeOrder, makeSpecification } from '../fixtures/portal-records.ts';

const logger = pino({ level: 'silent' });
const orderPage = (statuses: Array<[string, string]>): Results => ({
  resource: 'order',
  query: { resource: 'order', filter: 'STATUS', value: 'x' },
  paging: { limit: 5, offset: 0 },
  page: { items: statuses.map(([STATUS, STATUS_TEXT]) => makeOrder({ STATUS, STATUS_TEXT })), total: statuses.length, limit: 5, offset: 0 },
});
const status = (value: string) => ({ resource: 'order', filter: 'STATUS', value }) as const;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('statuses by name', () => {
  it('maps a code in any case to the code, a text learned from records to its code, anything else code-like as typed', async () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    const statuses = createStatuses({ store: store.statuses, logger, now: () => 0 });
    statuses.seen(orderPage([['production', 'Производство'], ['production_evaluation', 'Оценка производства']]));
    await settle();
    expect(await statuses.resolve(status('PRODUCTION'))).toEqual({ kind: 'query', query: status('production') });
    expect(await statuses.resolve(status('производство'))).toEqual({ kind: 'query', query: status('production') });
    expect(await statuses.resolve(status('Оценка  производства'))).toEqual({ kind: 'query', query: status('production_evaluation') });
    expect(await statuses.resolve(status('shipment_ready'))).toEqual({ kind: 'query', query: status('shipment_ready') });
    expect(await statuses.resolve(status('отгружен'))).toMatchObject({ kind: 'choose', reason: 'unknown', known: [{ code: 'production' }, { code: 'production_evaluation' }] });
    // Kept in the store: another process (a replica, a restart) knows them.
    expect(await store.statuses.all()).toHaveLength(2);
    const other = createStatuses({ store: store.statuses, logger, now: () => 0 });
    expect(await other.resolve(status('Производство'))).toEqual({ kind: 'query', query: status('production') });
    store.close();
  });

  it('offers the codes a name means when it means several', async () => {
    const store = openSqliteStore({ dataDir: ':memory:' });
    const statuses = createStatuses({ store: store.statuses, logger, now: () => 0 });
    statuses.seen(orderPage([['a1', 'Готов'], ['a2', 'готов']]));
    expect(await statuses.resolve(status('ГОТОВ'))).toMatchObject({ kind: 'choose', reason: 'several', known: [{ code: 'a1' }, { code: 'a2' }] });
    store.close();
  });

  it('writes only what it had not seen, and learns specification statuses and types without inventing texts', async () => {
    const learned: unknown[] = [];
    const store: StatusStore = { all: () => [], learn: (pairs) => void learned.push(...pairs) };
    const statuses = createStatuses({ store, logger, now: () => 0 });
    statuses.seen(orderPage([['production', 'Производство']]));
    statuses.seen(orderPage([['production', 'Производство']]));
    const spec: Results = {
      resource: 'specification',
      query: { resource: 'specification', filter: 'STATUS', value: '60' },
      paging: { limit: 5, offset: 0 },
      page: { items: [makeSpecification({ STATUS: '60', STATUS_TYPE: 'ZSD_DOG' })], total: 1, limit: 5, offset: 0 },
    };
    statuses.seen(spec);
    await settle();
    expect(learned).toEqual([
      { resource: 'order', field: 'STATUS', code: 'production', text: 'Производство' },
      { resource: 'specification', field: 'STATUS', code: '60', text: '' },
      { resource: 'specification', field: 'STATUS_TYPE', code: 'ZSD_DOG', text: '' },
    ]);
  });

  it('does not read again a page the portal cache hands out again (the same object)', () => {
    const statuses = createStatuses({ store: { all: () => [], learn: () => undefined }, logger, now: () => 0 });
    const page = orderPage([['production', 'Производство']]);
    let reads = 0;
    const [order] = page.page.items as Array<Record<string, unknown>>;
    Object.defineProperty(order, 'STATUS', { get: () => ((reads += 1), 'production') });
    statuses.seen(page);
    const once = reads;
    expect(once).toBeGreaterThan(0);
    statuses.seen({ ...page, paging: { limit: 5, offset: 0 } });
    expect(reads).toBe(once);
    // The same records fetched again are new objects: read again.
    const items = [...(page.page.items as ReturnType<typeof makeOrder>[])];
    statuses.seen({ ...page, resource: 'order', page: { ...page.page, items } } as Results);
    expect(reads).toBeGreaterThan(once);
  });

  it('takes the operator’s names in either language, and lists every status it knows in the order of its codes', async () => {
    const names = await parseStatusNames('names.json', JSON.stringify({ statuses: { '60': { ru: 'Подписан', en: 'Signed' }, '10': { ru: 'Черновик', en: 'Draft' } } }));
    const store: StatusStore = { all: () => [{ resource: 'specification', field: 'STATUS', code: '20', text: '' }], learn: () => undefined };
    const statuses = createStatuses({ store, names, logger, now: () => 0 });
    const spec = (value: string) => ({ resource: 'specification', filter: 'STATUS', value }) as const;
    expect(await statuses.resolve(spec('signed'))).toEqual({ kind: 'query', query: spec('60') });
    expect(await statuses.resolve(spec('черновик'))).toEqual({ kind: 'query', query: spec('10') });
    expect((await statuses.known('specification', 'STATUS')).map((known) => known.code)).toEqual(['10', '20', '60']);
  });

  it('keeps answering from what it knows when the store does not answer', async () => {
    const down: StatusStore = {
      all: () => {
        throw new StoreUnavailableError('db', 'down');
      },
      learn: async () => {
        throw new StoreUnavailableError('db', 'down');
      },
    };
    const statuses = createStatuses({ store: down, logger, now: () => 0 });
    statuses.seen(orderPage([['production', 'Производство']]));
    await settle();
    expect(await statuses.resolve(status('производство'))).toEqual({ kind: 'query', query: status('production') });
  });
});
