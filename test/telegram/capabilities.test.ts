import { describe, expect, it } from 'vitest';
import { createServerFeatures, type Capability } from '../../src/telegram/capabilities.ts';

const ALL: Capability[] = ['copyText', 'buttonStyle', 'dateTimeEntities', 'richMessages', 'disabledButtons', 'guestQueries'];

/** getMe of a bot as a server of each version sends it (botapi-10.md §6). */
const GET_ME: Record<string, object> = {
  '7.1': { id: 1, is_bot: true, first_name: 'Bot', username: 'bot', can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false },
};
GET_ME['9.3'] = { ...GET_ME['7.1'], can_connect_to_business: false, has_main_web_app: false, has_topics_enabled: false };
GET_ME['9.4'] = { ...GET_ME['9.3'], allows_users_to_create_topics: false };
GET_ME['9.6'] = { ...GET_ME['9.4'], can_manage_bots: false };
GET_ME['10.0'] = { ...GET_ME['9.6'], supports_guest_queries: false };
GET_ME['10.3'] = { ...GET_ME['10.0'], supports_join_request_queries: false };

const features = (me: object | undefined, mode: 'auto' | 'legacy' = 'auto') => {
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
  const logger = {
    info: (fields: Record<string, unknown>, msg: string) => void lines.push({ level: 'info', fields, msg }),
    warn: (fields: Record<string, unknown>, msg: string) => void lines.push({ level: 'warn', fields, msg }),
  };
  const made = createServerFeatures({ mode, logger: logger as never });
  made.readGetMe(() => me);
  return { made, lines, used: () => ALL.filter((capability) => made.has(capability)) };
};

describe("the Bot API server's features", () => {
  it.each([
    ['7.1', []],
    ['9.3', ['copyText']],
    ['9.4', ['copyText', 'buttonStyle']],
    ['9.6', ['copyText', 'buttonStyle', 'dateTimeEntities']],
    ['10.0', ['copyText', 'buttonStyle', 'dateTimeEntities', 'guestQueries']],
    // 10.1 brought the last getMe key: disabled buttons (10.3) are tried, and turned off if refused.
    ['10.3', ['copyText', 'buttonStyle', 'dateTimeEntities', 'richMessages', 'disabledButtons', 'guestQueries']],
  ])('from the getMe of a %s server: %j', (version, used) => {
    const { used: now, lines } = features(GET_ME[version]);
    expect(now()).toEqual(used);
    expect(lines).toEqual([{ level: 'info', fields: { telegramFeatures: 'auto', features: used }, msg: 'Bot API server features' }]);
  });

  it('none before getMe is known, none with TELEGRAM_FEATURES=legacy', () => {
    expect(features(undefined).used()).toEqual([]);
    const legacy = features(GET_ME['10.3'], 'legacy');
    expect(legacy.used()).toEqual([]);
    expect(legacy.lines.map((line) => line.msg)).toEqual(['Bot API server features: none used (TELEGRAM_FEATURES=legacy)']);
  });

  it('a capability the server turns out not to have is off for good, said once, and so is anything newer', () => {
    const { made, used, lines } = features(GET_ME['10.3']);
    made.lacks('richMessages', { refused: 'sendRichMessage' });
    made.lacks('richMessages');
    expect(used()).toEqual(['copyText', 'buttonStyle', 'dateTimeEntities', 'guestQueries']);
    expect(lines.filter((line) => line.level === 'warn')).toEqual([
      { level: 'warn', fields: { capability: 'richMessages', since: '10.1', refused: 'sendRichMessage' }, msg: expect.stringContaining('does not have richMessages (Bot API 10.1)') },
    ]);
  });

  it('a use that went through proves the version: confirmed, it is not taken back by an older reading', () => {
    const { made, used } = features(GET_ME['10.3']);
    made.confirm('disabledButtons');
    expect(used()).toContain('disabledButtons');
  });

  it('ephemeral messages (10.3): unknown from getMe, on once a use confirms them or a disabled button proves 10.3, off for good once refused', () => {
    const probe = features(GET_ME['10.3']);
    expect([probe.made.has('ephemeralMessages'), probe.made.unknown('ephemeralMessages')]).toEqual([false, true]);
    probe.made.confirm('ephemeralMessages');
    expect([probe.made.has('ephemeralMessages'), probe.made.unknown('ephemeralMessages')]).toEqual([true, false]);
    const proven = features(GET_ME['10.3']);
    proven.made.confirm('disabledButtons');
    expect(proven.made.has('ephemeralMessages')).toBe(true);
    const refused = features(GET_ME['10.3']);
    refused.made.lacks('ephemeralMessages', { refused: 'an ephemeral message' });
    expect([refused.made.has('ephemeralMessages'), refused.made.unknown('ephemeralMessages')]).toEqual([false, false]);
    // Older by getMe, or legacy: ruled out without a try.
    expect(features(GET_ME['10.0']).made.unknown('ephemeralMessages')).toBe(false);
    expect(features(GET_ME['10.3'], 'legacy').made.unknown('ephemeralMessages')).toBe(false);
  });

  it('logs refused content by the record and Telegram’s words', () => {
    const { made, lines } = features(GET_ME['10.3']);
    made.refused('0007300100', { code: 400, description: 'Bad Request: too many blocks' });
    expect(lines.at(-1)).toEqual({ level: 'warn', fields: { record: '0007300100', errorCode: 400, description: 'Bad Request: too many blocks' }, msg: 'Telegram refused a rich message: the HTML view instead' });
  });
});
