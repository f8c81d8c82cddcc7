import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.ts';

let h: Harness;
const ALLOWED = 600_001;
beforeAll(async () => {
  h = await startHarness({ env: { ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED) } });
});
afterEach(() => h.portal.fail(undefined));
afterAll(() => h.close());

const ask = async (from: ReturnType<Harness['api']['createUser']>, query: string, offset = '') => {
  const id = h.api.sendInlineQuery({ from, query, offset });
  return h.api.waitForInlineAnswer(id);
};

describe('inline mode', () => {
  it('answers an order number with a personal, briefly cached card', async () => {
    const user = h.api.createUser({ id: ALLOWED, language_code: 'en' });
    const answer = await ask(user, '0007300100');
    expect(answer.params).toMatchObject({ is_personal: true, cache_time: 10 });
    expect(answer.results).toHaveLength(1);
    const [result] = answer.results as Array<Record<string, unknown>>;
    expect(result).toMatchObject({ type: 'article', title: expect.stringContaining('0007300100') });
    // Sent as the record's rich message (its table) where the server has them: rich-records.test.ts, rich-fallback.test.ts.
    expect((result!.input_message_content as { rich_message: { html: string } }).rich_message.html).toContain('0007300100');
  });

  it('pages with next_offset', async () => {
    const user = h.api.createUser({ id: ALLOWED, language_code: 'ru' });
    const first = await ask(user, 'material 530х8');
    expect(first.results).toHaveLength(20);
    expect(first.params.next_offset).toBe('20');
    const second = await ask(user, 'material 530х8', '20');
    expect(second.results.length).toBeGreaterThan(0);
    expect(second.params.next_offset).toBe('');
    const ids = [...first.results, ...second.results].map((result) => (result as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('looks up specifications with "spec"', async () => {
    const user = h.api.createUser({ id: ALLOWED, language_code: 'ru' });
    const answer = await ask(user, 'spec ДП-77/2026');
    expect(answer.results).toHaveLength(8);
    expect(h.portal.requests.at(-1)).toContain('/api/lk/specification?CONTRACT_NUMBER=');
  });

  it('gives a stranger one "not allowed" result and asks the portal nothing', async () => {
    const stranger = h.api.createUser({ language_code: 'en' });
    const before = h.portal.requests.length;
    const answer = await ask(stranger, '0007300100');
    expect(answer.results).toHaveLength(1);
    expect(JSON.stringify(answer.results)).toContain(String(stranger.id));
    expect(h.portal.requests.length).toBe(before);
  });

  it('explains itself on an empty query, and says when the portal fails', async () => {
    const user = h.api.createUser({ id: ALLOWED, language_code: 'en' });
    expect((await ask(user, '')).results).toHaveLength(1);
    h.portal.fail('http500');
    const failed = await ask(user, '0007300100');
    expect(failed.results).toHaveLength(1);
    expect(failed.params.cache_time).toBe(0);
  });
});
