import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleData } from '../../src/demo/sample-data.ts';
import { startHarness, type Harness } from '../support/harness.ts';

// Whatever the portal sends, the bot stays up, tells the user something sensible and answers
// the next lookup: an answer too large to read, a page longer than asked, a record twice, a
// record that is gone when its button is pressed.

let h: Harness;
const ALLOWED = 600_101;
const stops: Array<() => void> = [];
beforeAll(async () => {
  // The smallest cap the configuration allows, so a "huge" answer stays small in the test.
  h = await startHarness({ env: { PORTAL_MAX_BODY_BYTES: '65536', ALLOW_ANYONE: 'false', ALLOWED_USER_IDS: String(ALLOWED) } });
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});
afterAll(() => h.close());

const page = (result: unknown[], total = result.length) => ({ body: { success: true, error_code: null, data: { result, total, limit: 5, offset: 0 } } });
const answerWhere = (match: string, answer: Parameters<Harness['portal']['answerWhere']>[1]) => {
  const override = h.portal.answerWhere((url) => url.includes(match), answer);
  stops.push(override.stop);
  return override;
};
const labels = (message: { buttons: Array<{ text: string }> } | undefined) => message?.buttons.map((button) => button.text) ?? [];
const sample = (sapId: string) => {
  const found = sampleData.orders.find((order) => order.SAP_ID === sapId);
  if (!found) throw new Error(`no demo order ${sapId}`);
  return found;
};

describe('when the portal misbehaves', () => {
  it('an answer over PORTAL_MAX_BODY_BYTES is "unreadable data", and the next lookup is answered', async () => {
    const huge = answerWhere('SAP_ID=0007300200', page([{ ...sample('0007300100'), SAP_ID: '0007300200', STATUS_TEXT: 'Ж'.repeat(600_000) }]));
    const user = h.api.createUser({ id: ALLOWED, language_code: 'en' });
    const notice = await h.ask(user, '/order 0007300200');
    expect(notice.text).toContain('The portal sent data the bot cannot read');
    expect(huge.count()).toBe(1);
    expect((await h.ask(user, '/order 0007300100')).text).toMatch(/^Order No\. 0007300100 dated /);
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('a page of 2,000 records for 5 asked shows 5 of them, with 5 buttons to open them', async () => {
    const records = Array.from({ length: 2_000 }, (_, index) => ({ SAP_ID: String(8_000_000 + index).padStart(10, '0') }));
    answerWhere('STATUS=production', page(records, 2_000));
    const user = h.api.createUser({ id: ALLOWED, language_code: 'en' });
    const list = await h.ask(user, '/order status production');
    expect(list.text.split('\n')[0]).toBe('Orders 1–5 of 2,000');
    expect(labels(list).filter((label) => /^\d+$/.test(label))).toEqual(['1', '2', '3', '4', '5']);
    expect(h.logs).toContainEqual(expect.objectContaining({ level: 40, received: 2_000, limit: 5 }));
  });

  it('a record sent twice is offered once in inline mode, and Telegram accepts the answer', async () => {
    answerWhere('SAP_ID=0007300100', page([sample('0007300100'), sample('0007300100')]));
    const user = h.api.createUser({ id: ALLOWED, language_code: 'en' });
    const answer = await h.api.waitForInlineAnswer(h.api.sendInlineQuery({ from: user, query: '0007300100', offset: '' }));
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]).toMatchObject({ id: 'o:0007300100', title: expect.stringContaining('0007300100') });
    expect(h.api.failedCalls()).toEqual([]);
  });

  it('a record button whose query now finds nothing says the record is gone, with a way back', async () => {
    const user = h.api.createUser({ id: ALLOWED, language_code: 'en' });
    const record = await h.ask(user, '/order 0007300100');
    const logged = h.logs.length;
    answerWhere('SAP_ID=0007300100', page([], 0));
    // A rich message cannot become a text one: the answer comes as a message of its own.
    const reply = h.api.nextBotMessage(user.id);
    const { answer } = await h.press(user, record, h.button(record, '🔄 Refresh'));
    expect(answer).toBeDefined();
    const message = await reply;
    expect(message.text).toBe('This record is no longer in the portal’s results for this search: it was changed or removed. Please send the command again.');
    expect(labels(message)).toEqual(['◀ Back to list']);
    expect(h.logs.slice(logged).filter((line) => line.level === 50)).toEqual([]);
  });
});
