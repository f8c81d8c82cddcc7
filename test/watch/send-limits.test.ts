import { describe, expect, it } from 'vitest';
import { createSendLimits } from '../../src/watch/send-limits.ts';

describe("Telegram's send limits", () => {
  it('lets one message a second into a private chat', () => {
    const limits = createSendLimits();
    expect(limits.wait(42, 1_000)).toBe(0);
    limits.sent(42, 1_000);
    expect(limits.wait(42, 1_400)).toBe(600);
    expect(limits.wait(43, 1_400)).toBe(0);
    expect(limits.wait(42, 2_000)).toBe(0);
  });

  it('lets 20 messages a minute into a group', () => {
    const limits = createSendLimits();
    const group = -100_123;
    for (let i = 0; i < 20; i += 1) {
      expect(limits.wait(group, i * 1_000)).toBe(0);
      limits.sent(group, i * 1_000);
    }
    // The 21st waits until the first of the last 20 is a minute old.
    expect(limits.wait(group, 20_000)).toBe(40_000);
    expect(limits.wait(group, 60_000)).toBe(0);
  });

  it('lets 30 messages a second out in all', () => {
    const limits = createSendLimits();
    for (let chat = 1; chat <= 30; chat += 1) {
      expect(limits.wait(chat, 5_000)).toBe(0);
      limits.sent(chat, 5_000);
    }
    expect(limits.wait(31, 5_500)).toBe(500);
    expect(limits.wait(31, 6_000)).toBe(0);
  });

  it('forgets chats that no longer limit anything', () => {
    const limits = createSendLimits();
    for (let chat = 1; chat <= 1_000; chat += 1) limits.sent(chat, chat);
    limits.sweep(30_000);
    expect(limits.size()).toBe(1_000);
    limits.sweep(61_001);
    expect(limits.size()).toBe(0);
  });
});
