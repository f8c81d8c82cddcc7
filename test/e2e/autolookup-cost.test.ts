import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatterOfADay } from '../support/chatter.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// What a group with /autolookup on costs the portal (issue 30): 1,000 messages of a sales group's
// ordinary day (test/support/chatter.ts), 0–59 s apart on the harness's clock, with the default
// PORTAL_CACHE_SECONDS. Counted, not timed: the same figure on every run (docs/operations.md).

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { PORTAL_CACHE_SECONDS: '30' } });
});
afterAll(() => h.close());

/** A fixed, well-mixed integer in [0, range) for a seed. */
const spread = (seed: number, range: number) => (Math.imul(seed + 1, 2654435761) >>> 0) % range;

describe('a group with /autolookup on, over 1,000 messages of chatter', () => {
  it('asks the portal only for the identifiers named, each at most once per cache time, and answers only where it found something', async () => {
    h.api.setPrivacyMode(false);
    const admin = h.api.createUser({ language_code: 'ru' });
    // Twenty-five people: the flood limit counts in real time, and the test runs a day in seconds.
    const people = [admin, ...Array.from({ length: 24 }, (_, index) => h.api.createUser({ language_code: index % 3 === 0 ? 'en' : 'ru' }))];
    const group = h.api.createGroup({ type: 'supergroup' });
    h.api.setMemberStatus(group, admin, 'creator');
    await h.ask(admin, '/autolookup on', group);
    const lines = chatterOfADay(1000);
    const requestsBefore = h.portal.requests.length;
    const answersBefore = h.api.messagesIn(group.id).length;
    const answered: string[] = [];
    const asked: string[] = [];
    for (const [index, line] of lines.entries()) {
      h.advance(spread(index, 60) * 1000);
      const before = h.api.messagesIn(group.id).length;
      const requested = h.portal.requests.length;
      h.api.sendText({ from: people[index % people.length]!, chat: group, text: line.text });
      await h.settle();
      if (h.api.messagesIn(group.id).length > before) answered.push(line.kind);
      if (h.portal.requests.length > requested) asked.push(line.kind);
    }
    const requests = h.portal.requests.length - requestsBefore;
    const answers = h.api.messagesIn(group.id).length - answersBefore;
    const kinds = (kind: string) => lines.filter((line) => line.kind === kind).length;
    console.info(`autolookup over ${lines.length} messages: ${kinds('plain')} plain, ${kinds('numbers')} with numbers that are no identifiers, ${kinds('identifier')} naming one; ${requests} portal requests, ${answers} answers`);
    // Only messages that name an identifier cost anything or get an answer; never two answers to one message.
    expect(asked.every((kind) => kind === 'identifier')).toBe(true);
    expect(answered.every((kind) => kind === 'identifier')).toBe(true);
    expect(answers).toBe(answered.length);
    // 128 messages name an identifier, 23 of them a material code (two requests: its orders, its
    // specifications): 151 requests with PORTAL_CACHE_SECONDS=0; the 30 s cache saves the 15 of
    // numbers named again within it. 7 name an order that is not there: no answer.
    expect({ plain: kinds('plain'), numbers: kinds('numbers'), identifiers: kinds('identifier') }).toEqual({ plain: 680, numbers: 192, identifiers: 128 });
    expect({ requests, answers }).toEqual({ requests: 136, answers: 121 });
  });
});
