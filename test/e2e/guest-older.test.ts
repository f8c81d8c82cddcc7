import { afterEach, describe, expect, it } from 'vitest';
import type { Chat } from '../../src/telegram/telegraf/core.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Guest mode against servers without it: one older than 10.0 never sends a guest message; one that
// answers 404 for answerGuestQuery turns guest answers off for the process, said once in the log.

let h: Harness | undefined;
const ALLOWED = 640_001;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const chat = (id: number): Chat.PrivateChat => ({ id, type: 'private', first_name: 'Customer' });

describe('guest mode on a server that lacks it', () => {
  it('an older server (9.6): no guest updates arrive, the rest works, the bot asks for nothing it lacks', async () => {
    h = await startHarness({ botApiVersion: '9.6', env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED) } });
    const user = h.api.createUser({ id: ALLOWED, language_code: 'ru' });
    expect(h.api.sendGuestMessage({ from: user, chat: chat(650_000_001), text: '@order_lookup_bot 0007300100' })).toBeUndefined();
    expect((await h.ask(user, '/order 0007300100')).text).toContain('0007300100');
    await h.settle();
    expect(h.api.callsTo('answerGuestQuery')).toEqual([]);
    expect(h.api.failedCalls()).toEqual([]);
    expect(h.api.ignoredFields()).toEqual([]);
  });

  it('answerGuestQuery answered 404: off for the process, logged once, later guest messages unanswered (en, ru)', async () => {
    h = await startHarness({ env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED) } });
    const harness = h;
    harness.api.failNext('answerGuestQuery', { error_code: 404, description: 'Not Found' });
    for (const [index, language_code] of (['en', 'ru'] as const).entries()) {
      const user = harness.api.createUser({ id: ALLOWED, language_code });
      harness.api.sendGuestMessage({ from: user, chat: chat(660_000_001 + index), text: '@order_lookup_bot 0007300100' });
      await harness.settle();
    }
    expect(harness.api.callsTo('answerGuestQuery')).toHaveLength(1);
    const said = harness.logs.filter((line) => line.capability === 'guestQueries');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, refused: 'answerGuestQuery', msg: expect.stringContaining('does not have guestQueries') });
    // Everything else goes on.
    expect((await harness.ask(harness.api.createUser({ id: ALLOWED, language_code: 'en' }), '/order 0007300100')).text).toContain('0007300100');
  });
});
