import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.ts';

// One slow portal call must not stall other chats; identical queries in flight are sent once;
// pages are cached for PORTAL_CACHE_SECONDS, and 🔄 Refresh goes past the cache.

const HUNG = '0007300100';
/** Another order of the demo data (SAP_ID 7300100 + 17 × index). */
const OTHER = '0007300117';

/** A metric's value (no labels) from the Prometheus text. */
const metric = async (h: Harness, name: string): Promise<number> => {
  const line = (await h.metrics.registry.render()).split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? 'NaN');
};

describe('a portal call that hangs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { PORTAL_TIMEOUT_MS: '30000' } });
  });
  afterAll(() => h.close());

  it('does not hold up another user, and its user is answered once the portal answers', async () => {
    const hold = h.portal.hangWhere((url) => url.includes(HUNG));
    const a = h.api.createUser({ language_code: 'en' });
    const b = h.api.createUser({ language_code: 'en' });
    const aReply = h.ask(a, `/order ${HUNG}`);
    await h.api.waitFor(() => hold.count() === 1, { description: "A's request held by the portal" });

    const started = performance.now();
    const bReply = await h.ask(b, `/order ${OTHER}`);
    const elapsed = performance.now() - started;
    expect(bReply.text).toContain(`Order No. ${OTHER}`);
    expect(elapsed).toBeLessThan(1000);
    // A is still waiting: the portal has not answered it.
    expect(h.api.messagesIn(a.id)).toEqual([]);

    hold.release();
    const answer = await aReply;
    expect(answer.text).toContain(`Order No. ${HUNG}`);
    expect(answer.text).toMatch(/^Order No\. \d{10} dated /);
  });

  it('keeps one chat in order: a second message of the hung user waits for the first', async () => {
    const hold = h.portal.hangWhere((url) => url.includes(HUNG));
    const a = h.api.createUser({ language_code: 'en' });
    h.api.sendText({ from: a, text: `/order ${HUNG}` });
    await h.api.waitFor(() => hold.count() === 1, { description: "A's request held by the portal" });
    h.api.sendText({ from: a, text: `/order ${OTHER}` });
    // Another chat gets through while A's second message waits behind the first.
    const b = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(b, `/order ${OTHER}`)).text).toContain(`Order No. ${OTHER}`);
    expect(h.api.messagesIn(a.id)).toEqual([]);
    hold.release();
    await h.settle();
    const texts = h.api.messagesIn(a.id).map((message) => message.text);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain(`Order No. ${HUNG}`);
    expect(texts[1]).toContain(`Order No. ${OTHER}`);
  });

  it('shows "typing…" while the portal is slow, and not when the answer comes at once', async () => {
    const fast = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(fast, `/order ${OTHER}`)).text).toContain(`Order No. ${OTHER}`);
    expect(h.api.chatActions(fast.id)).toEqual([]);

    const hold = h.portal.hangWhere((url) => url.includes(HUNG));
    const slow = h.api.createUser({ language_code: 'en' });
    const reply = h.ask(slow, `/order ${HUNG}`);
    await h.api.waitFor(() => h.api.chatActions(slow.id).length === 1, { description: 'typing… in the slow chat' });
    expect(h.api.chatActions(slow.id)).toMatchObject([{ action: 'typing' }]);
    hold.release();
    expect((await reply).text).toContain(`Order No. ${HUNG}`);
    expect(h.api.chatActions(slow.id)).toHaveLength(1);
  });

  it('sends identical queries of several users to the portal once', async () => {
    const value = '0007300134';
    const hold = h.portal.hangWhere((url) => url.includes(value));
    const before = h.portal.requests.length;
    const joinedBefore = await metric(h, 'orderbot_portal_cache_hits_total');
    const users = [1, 2, 3].map(() => h.api.createUser({ language_code: 'en' }));
    const replies = users.map((user) => h.ask(user, `/order ${value}`));
    // The first is held by the portal, the other two joined it.
    // One request held, two joined.
    await vi.waitFor(async () => expect([hold.count(), await metric(h, 'orderbot_portal_cache_hits_total')]).toEqual([1, joinedBefore + 2]), { timeout: 5_000, interval: 5 });
    hold.release();
    for (const reply of await Promise.all(replies)) expect(reply.text).toContain(`Order No. ${value}`);
    expect(h.portal.requests.slice(before)).toHaveLength(1);
  });
});

describe('the cache', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { PORTAL_CACHE_SECONDS: '60' } });
  });
  afterAll(() => h.close());

  it('answers a page seen within the TTL without the portal; Refresh asks the portal again', async () => {
    const user = h.api.createUser({ language_code: 'en' });
    const first = await h.ask(user, '/order status production');
    expect(first.text.split('\n')[0]).toBe('Orders 1–5 of 21');
    const afterFirst = h.portal.requests.length;

    const second = await h.press(user, first, h.button(first, '▶'));
    expect(second.message?.text.split('\n')[0]).toBe('Orders 6–10 of 21');
    expect(h.portal.requests.length).toBe(afterFirst + 1);

    // Back and forth: both pages are cached.
    const back = await h.press(user, first, h.button(second.message, '◀'));
    expect(back.message?.text.split('\n')[0]).toBe('Orders 1–5 of 21');
    const forth = await h.press(user, first, h.button(back.message, '▶'));
    expect(forth.message?.text.split('\n')[0]).toBe('Orders 6–10 of 21');
    expect(h.portal.requests.length).toBe(afterFirst + 1);

    // The same query from someone else: cached too.
    const other = h.api.createUser({ language_code: 'en' });
    expect((await h.ask(other, '/order status production')).text.split('\n')[0]).toBe('Orders 1–5 of 21');
    expect(h.portal.requests.length).toBe(afterFirst + 1);

    await h.press(user, first, h.button(forth.message, '🔄 Refresh'));
    expect(h.portal.requests.length).toBe(afterFirst + 2);
    expect(h.portal.requests.at(-1)).toContain('offset=5');
  });
});
