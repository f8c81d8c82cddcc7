import { describe, expect, it } from 'vitest';
import { dueAt } from '../../src/watch/chat-digest.ts';

const iso = (moment: number) => new Date(moment).toISOString();

describe('when a digest is due', () => {
  const now = Date.parse('2026-11-24T03:00:00Z'); // 08:00 in Yekaterinburg, 06:00 in Moscow
  it('at its time of day in the chat’s zone, the next one after now', () => {
    expect(iso(dueAt('Asia/Yekaterinburg', 9 * 60, now, undefined))).toBe('2026-11-24T04:00:00.000Z');
    expect(iso(dueAt('Europe/Moscow', 9 * 60, now, undefined))).toBe('2026-11-24T06:00:00.000Z');
    expect(iso(dueAt('Asia/Yekaterinburg', 7 * 60, now, undefined))).toBe('2026-11-25T02:00:00.000Z');
  });

  it('once a day: a new time on a day whose digest went already waits for the next day', () => {
    const sentToday = Date.parse('2026-11-24T02:00:00Z'); // 07:00 there
    expect(iso(dueAt('Asia/Yekaterinburg', 9 * 60, now, sentToday))).toBe('2026-11-25T04:00:00.000Z');
    const sentYesterday = Date.parse('2026-11-23T04:00:00Z');
    expect(iso(dueAt('Asia/Yekaterinburg', 9 * 60, now, sentYesterday))).toBe('2026-11-24T04:00:00.000Z');
  });
});
