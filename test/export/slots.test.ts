import { describe, expect, it } from 'vitest';
import { createExportSlots } from '../../src/export/slots.ts';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('export slots', () => {
  it('gives a user one export at a time, and the next once it ends', () => {
    const slots = createExportSlots(2);
    const first = slots.take(1);
    expect(first?.place()).toBe(0);
    expect(slots.take(1)).toBeUndefined();
    first?.end();
    first?.end();
    expect(slots.running()).toBe(0);
    expect(slots.take(1)?.place()).toBe(0);
  });

  it('runs at most `concurrency` at once; the rest wait in line, first come first served, told as they move', async () => {
    const slots = createExportSlots(2);
    const [a, b, c, d] = [1, 2, 3, 4].map((user) => slots.take(user)!);
    expect([a, b, c, d].map((turn) => turn!.place())).toEqual([0, 0, 1, 2]);
    const moves: string[] = [];
    const started: string[] = [];
    void c!.started((place) => moves.push(`c${place}`)).then(() => started.push('c'));
    void d!.started((place) => moves.push(`d${place}`)).then(() => started.push('d'));
    await flush();
    expect(started).toEqual([]);
    b!.end();
    await flush();
    expect(started).toEqual(['c']);
    expect(moves).toEqual(['d1']);
    expect([c!.place(), d!.place()]).toEqual([0, 1]);
    expect([slots.running(), slots.waiting()]).toEqual([2, 1]);
    a!.end();
    await flush();
    expect(started).toEqual(['c', 'd']);
    expect([slots.running(), slots.waiting()]).toEqual([2, 0]);
  });

  it('lets a waiting export leave the line, moving those behind it up', async () => {
    const slots = createExportSlots(1);
    const a = slots.take(1)!;
    const b = slots.take(2)!;
    const c = slots.take(3)!;
    const moves: number[] = [];
    void c.started((place) => moves.push(place));
    b.end();
    expect(moves).toEqual([1]);
    expect(c.place()).toBe(1);
    expect(slots.take(2)?.place()).toBe(2);
    a.end();
    await flush();
    expect(c.place()).toBe(0);
    expect(slots.running()).toBe(1);
  });
});
