import { describe, expect, it } from 'vitest';
import { parseDigestArgs } from '../../src/bot/digest-args.ts';

describe('the words of /digest', () => {
  it.each([
    ['09:00', { kind: 'at', minute: 540, quiet: false }],
    ['9:05', { kind: 'at', minute: 545, quiet: false }],
    ['  23:59   quiet ', { kind: 'at', minute: 1439, quiet: true }],
    ['00:00 тихо', { kind: 'at', minute: 0, quiet: true }],
    ['18.30 QUIET', { kind: 'at', minute: 1110, quiet: true }],
    ['off', { kind: 'off' }],
    ['ВЫКЛ', { kind: 'off' }],
  ] as const)('reads %j', (payload, args) => {
    expect(parseDigestArgs(payload)).toEqual(args);
  });

  it.each([
    ['25:00', { kind: 'badTime', given: '25:00' }],
    ['9', { kind: 'badTime', given: '9' }],
    ['09:60', { kind: 'badTime', given: '09:60' }],
    ['0900', { kind: 'badTime', given: '0900' }],
    ['off now', { kind: 'badTime', given: 'off' }],
    ['09:00 loud', { kind: 'badWord', given: 'loud' }],
    ['09:00 quiet please', { kind: 'badWord', given: 'quiet please' }],
    ['x'.repeat(50), { kind: 'badTime', given: `${'x'.repeat(40)}…` }],
  ] as const)('refuses %j, quoting it', (payload, args) => {
    expect(parseDigestArgs(payload)).toEqual(args);
  });
});
