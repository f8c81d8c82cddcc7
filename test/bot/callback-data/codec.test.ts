import { describe, expect, it } from 'vitest';
import { canInline, packCallback, unpackCallback } from '../../../src/bot/callback-data/codec.ts';

describe('callback data codec', () => {
  it('packs and unpacks a page with the query inline', () => {
    const action = {
      type: 'page',
      limit: 5,
      offset: 15,
      refresh: false,
      ref: { query: { resource: 'order', filter: 'POSITION[MATERIAL_SAP_ID]', value: '000000000010012345' } },
    } as const;
    const data = packCallback(action);
    expect(data).toBe('p:5:15:o5=000000000010012345');
    expect(unpackCallback(data)).toEqual(action);
  });

  it('packs and unpacks a page with a stored query, and the page indicator', () => {
    const action = { type: 'page', limit: 20, offset: 0, ref: { key: 'AbC_-123' }, refresh: false } as const;
    expect(packCallback(action)).toBe('p:20:0:@AbC_-123');
    expect(unpackCallback('p:20:0:@AbC_-123')).toEqual(action);
    expect(unpackCallback(packCallback({ type: 'noop' }))).toEqual({ type: 'noop' });
  });

  it.each([
    [{ type: 'page', limit: 10, offset: 30, ref: { key: 'k1' }, refresh: true }, 'pr:10:30:@k1'],
    [{ type: 'record', limit: 5, offset: 10, index: 3, part: 2, id: 'Ab_-9z', ref: { key: 'k1' }, refresh: false }, 'r:5:10:3:2:Ab_-9z:@k1'],
    [{ type: 'record', limit: 20, offset: 0, index: 19, part: 0, id: 'abcdef', ref: { query: { resource: 'specification', filter: 'SPECIFICATION_NUMBER', value: '12' } }, refresh: true }, 'rr:20:0:19:0:abcdef:s1=12'],
    [{ type: 'lookup', ref: { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } } }, 'x:o0=0007300100'],
    [{ type: 'language', locale: 'en', scope: 'user' }, 'l:en'],
    [{ type: 'language', locale: 'ru', scope: 'chat' }, 'lg:ru'],
    [{ type: 'pageSize', pageSize: 20 }, 'z:20'],
    [{ type: 'openRecord', limit: 5, offset: 0, index: 2, id: 'Ab_-9z', ref: { key: 'k1' } }, 'qo:5:0:2:Ab_-9z:@k1'],
    [{ type: 'openRecord', limit: 20, offset: 9999980, index: 19, id: 'abcdef', ref: { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } } }, 'qo:20:9999980:19:abcdef:o0=0007300100'],
    [{ type: 'autolookup', on: true }, 'qa:1'],
    [{ type: 'autolookup', on: false }, 'qa:0'],
    [{ type: 'materials', resource: 'order', limit: 5, offset: 10, index: 3, page: 2, id: 'Ab_-9z', ref: { key: 'k1' } }, 'mo:5:10:3:2:Ab_-9z:@k1'],
    [{ type: 'materials', resource: 'specification', limit: 20, offset: 0, index: 19, page: 0, id: 'abcdef', ref: { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } } }, 'ms:20:0:19:0:abcdef:o0=0007300100'],
    [{ type: 'answerMode', mode: 'private' }, 'va:p'],
    [{ type: 'answerMode', mode: 'public' }, 'va:g'],
    [{ type: 'showPage', limit: 5, offset: 10, ref: { key: 'k1' } }, 'vs:5:10:@k1'],
    [{ type: 'showRecord', limit: 5, offset: 0, index: 2, part: 1, id: 'abcdef', ref: { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } } }, 'vr:5:0:2:1:abcdef:o0=0007300100'],
  ] as const)('round-trips %j', (action, data) => {
    expect(packCallback(action)).toBe(data);
    expect(unpackCallback(data)).toEqual(action);
  });

  it('keeps a value with colons whole', () => {
    const data = packCallback({ type: 'page', limit: 10, offset: 10, refresh: false, ref: { query: { resource: 'specification', filter: 'STATUS', value: 'a:b' } } });
    expect(unpackCallback(data)).toMatchObject({ ref: { query: { value: 'a:b', filter: 'STATUS', resource: 'specification' } } });
  });

  it('inlines only printable ASCII that fits 64 bytes even at the largest offset', () => {
    expect(canInline({ resource: 'order', filter: 'SAP_ID', value: '0007300100' })).toBe(true);
    expect(canInline({ resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' })).toBe(false);
    expect(canInline({ resource: 'order', filter: 'SAP_ID', value: 'x'.repeat(60) })).toBe(false);
  });

  it('refuses to pack what Telegram would reject', () => {
    expect(() =>
      packCallback({ type: 'page', limit: 5, offset: 0, refresh: false, ref: { query: { resource: 'order', filter: 'SAP_ID', value: 'ж'.repeat(40) } } }),
    ).toThrow(RangeError);
  });

  it.each([
    undefined,
    '',
    'p',
    'p:7:0:o0=1',
    'p:5:-5:o0=1',
    'p:5:abc:o0=1',
    'p:5:0:o9=1',
    'p:5:0:x0=1',
    'p:5:0:o0=',
    'p:5:0:@',
    'p:5:0:@bad key',
    'p:5:99999999:o0=1',
    'drop table',
    'r:5:0:1:@k',
    'r:5:0:1:0:@k',
    'r:5:0:1:0:toolong1:@k',
    'r:5:0:100:0:@k',
    'x:',
    'l:de',
    'z:7',
    'lg:',
    'constructor:1',
    '__proto__:1',
    '{"json":true}',
  ])('decodes forged data %j to nothing', (data) => {
    expect(unpackCallback(data)).toBeUndefined();
  });

  it.each(['05', '1e1', '0x5', ' 5', '5 ', '5.0', '+5', '010', '0x14', '2e1', '', 'Infinity', '٥'])(
    'takes no page size but 5, 10 or 20 written plainly, not %j',
    (size) => {
      for (const data of [`p:${size}:0:o0=1`, `pr:${size}:0:@k`, `r:${size}:0:0:0:abcdef:@k`, `z:${size}`]) {
        expect(unpackCallback(data), data).toBeUndefined();
      }
    },
  );

  it.each(['05', '00', '1e1', '0x5', ' 5', '5 ', '5.0', '+5', '-0', '٥', '0b1'])('takes no offset, index or part written as %j', (n) => {
    for (const data of [`p:5:${n}:o0=1`, `r:5:${n}:0:0:abcdef:@k`, `r:5:0:${n}:0:abcdef:@k`, `r:5:0:0:${n}:abcdef:@k`]) {
      expect(unpackCallback(data), data).toBeUndefined();
    }
  });

  it('takes numbers written plainly, up to their digit limits', () => {
    expect(unpackCallback('p:10:0:@k')).toMatchObject({ limit: 10, offset: 0 });
    expect(unpackCallback('p:5:9999995:@k')).toMatchObject({ offset: 9_999_995 });
    expect(unpackCallback('r:20:40:19:10:abcdef:@k')).toMatchObject({ limit: 20, offset: 40, index: 19, part: 10 });
  });

  it.each([
    'x:o2=notadate',
    'x:o2=2026-02-30',
    'x:o2=15.03.2026',
    'p:5:0:s4=2026-3-15',
    'x:o0= 0007300100',
    'x:o0=0007300100 ',
    'x:o3=in  production',
    'x:o0= ',
    `x:o4=${'x'.repeat(101)}`,
  ])('checks the value of %j as a typed command is checked', (data) => {
    expect(unpackCallback(data)).toBeUndefined();
  });

  it('takes a value a typed command gives, dates as ISO dates', () => {
    expect(unpackCallback('x:o2=2026-03-15')).toEqual({ type: 'lookup', ref: { query: { resource: 'order', filter: 'DATE_ORDER', value: '2026-03-15' } } });
    expect(unpackCallback('x:o4=truba 530')).toMatchObject({ ref: { query: { value: 'truba 530' } } });
  });
});

describe('watch buttons', () => {
  it.each([
    [{ type: 'watch', ref: { query: { resource: 'order', filter: 'SAP_ID', value: '0007300100' } } }, 'w:o0=0007300100'],
    [{ type: 'watch', ref: { key: 'abcDEF0123456789' } }, 'w:@abcDEF0123456789'],
    [{ type: 'watchRecord', ref: { key: 'abcDEF0123456789' }, limit: 20, offset: 9_999_999, index: 19, id: 'Ab-_9z' }, 'wr:20:9999999:19:Ab-_9z:@abcDEF0123456789'],
    [{ type: 'unwatch', watchId: 4_294_967_295 }, 'u:4294967295'],
    [{ type: 'watchList', offset: 10 }, 'wl:10'],
  ] as const)('packs %j as %s and back', (action, data) => {
    expect(packCallback(action)).toBe(data);
    expect(unpackCallback(data)).toEqual(action);
  });

  it.each(['u:', 'u:01', 'u:1e3', 'u:-1', 'u:12345678901', 'wl:05', 'wr:5:0:0:short:o0=1', 'w:o2=notadate'])('refuses %j', (data) => {
    expect(unpackCallback(data)).toBeUndefined();
  });
});

describe('export buttons', () => {
  it.each([
    [{ type: 'export', ref: { query: { resource: 'order', filter: 'STATUS', value: 'production' } } }, 'e:o3=production'],
    [{ type: 'export', ref: { query: { resource: 'specification', filter: 'ORDER[DATE_ORDER]', value: '2026-03-15' } } }, 'e:s4=2026-03-15'],
    [{ type: 'export', ref: { key: 'abcDEF0123456789' } }, 'e:@abcDEF0123456789'],
  ] as const)('packs %j as %s and back', (action, data) => {
    expect(packCallback(action)).toBe(data);
    expect(unpackCallback(data)).toEqual(action);
  });

  it('fits 64 bytes for any query that may travel inline', () => {
    const query = { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'x'.repeat(100) } as const;
    expect(canInline(query)).toBe(false);
    const longest = 'x'.repeat(64 - 'rr:20:9999999:99:99:XXXXXX:o4='.length);
    const fits = { resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: longest } as const;
    expect(canInline(fits)).toBe(true);
    expect(Buffer.byteLength(packCallback({ type: 'export', ref: { query: fits } }))).toBeLessThanOrEqual(64);
  });

  it.each(['e:', 'e', 'e:o9=1', 'e:x0=1', 'e:o2=notadate', 'e:@bad key', 'e:o0= 1', 'ex:o0=1', 'qa:2', 'qa:', 'qa:true', 'qo:5:0:0:abcdef:o0=7300100', 'qo:5:0:0:abc:@k', 'va:', 'va:x', 'va:p:1', 'vs:5:0', 'vr:5:0:0:0:abc:@k'])('refuses %j', (data) => {
    expect(unpackCallback(data)).toBeUndefined();
  });
});

describe('access buttons', () => {
  it('packs Request access, All commands, and Allow / Deny of a request by its id', () => {
    expect(packCallback({ type: 'requestAccess' })).toBe('ga');
    expect(packCallback({ type: 'help' })).toBe('gh');
    expect(packCallback({ type: 'decideAccess', requestId: 42, decision: 'allow' })).toBe('gy:42');
    expect(packCallback({ type: 'decideAccess', requestId: 999_999_999_999_999, decision: 'deny' })).toBe('gn:999999999999999');
    expect(unpackCallback('ga')).toEqual({ type: 'requestAccess' });
    expect(unpackCallback('gh')).toEqual({ type: 'help' });
    expect(unpackCallback('gy:42')).toEqual({ type: 'decideAccess', requestId: 42, decision: 'allow' });
    expect(unpackCallback('gn:7')).toEqual({ type: 'decideAccess', requestId: 7, decision: 'deny' });
  });

  it.each(['ga:1', 'gh:', 'gy', 'gy:', 'gy:-1', 'gy:042', 'gy:1e3', 'gy:1:2', 'gn:9999999999999999', 'gx:1', 'g'])('refuses %s', (data) => {
    expect(unpackCallback(data)).toBeUndefined();
  });

  it('fits a materials button of any query it inlines within 64 bytes, as a record button', () => {
    const value = 'x'.repeat(64);
    for (let length = 1; length <= value.length; length += 1) {
      const query = { resource: 'order', filter: 'STATUS', value: value.slice(0, length) } as const;
      if (!canInline(query)) break;
      const data = packCallback({ type: 'materials', resource: 'specification', limit: 20, offset: 9_999_999, index: 99, page: 99, id: 'XXXXXX', ref: { query } });
      expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    }
    expect(unpackCallback('mo:5:0:0:100:abcdef:@k1')).toBeUndefined();
  });
});

describe('callback data of issue 33: a watch’s options, snooze and settings; the digest and the time zone', () => {
  it.each([
    [{ type: 'watchMode', watchId: 42, statusOnly: true }, 'dm:42:s'],
    [{ type: 'watchMode', watchId: 9_999_999_999, statusOnly: false }, 'dm:9999999999:a'],
    [{ type: 'watchDelivery', watchId: 42, digestOnly: true }, 'dd:42:d'],
    [{ type: 'watchDelivery', watchId: 42, digestOnly: false }, 'dd:42:i'],
    [{ type: 'snooze', watchId: 42, span: 'day' }, 'ds:42:d'],
    [{ type: 'snooze', watchId: 42, span: 'week' }, 'ds:42:w'],
    [{ type: 'snooze', watchId: 42, span: 'resume' }, 'ds:42:r'],
    [{ type: 'watchSettings', watchId: 42, offset: 10 }, 'dw:42:10'],
    [{ type: 'digest', minute: 540 }, 'dg:0900'],
    [{ type: 'digest', minute: 0 }, 'dg:0000'],
    [{ type: 'digest', minute: 1439 }, 'dg:2359'],
    [{ type: 'digest', minute: null }, 'dg:off'],
    [{ type: 'digest', minute: 'choose' }, 'dg:c'],
    [{ type: 'timeZone', zone: 3 }, 't:3'],
    [{ type: 'timeZone', zone: 11 }, 't:11'],
    [{ type: 'timeZone', zone: 'choose' }, 't:c'],
  ] as const)('round-trips %j', (action, data) => {
    expect(packCallback(action)).toBe(data);
    expect(unpackCallback(data)).toEqual(action);
  });

  it.each(['dm:42:x', 'dm:042:s', 'dm:42', 'dd:42:s', 'ds:42:m', 'ds::d', 'dw:42', 'dg:2400', 'dg:0960', 'dg:900', 'dg:9:00', 'dg:', 't:12', 't:-1', 't:03', 't:'])(
    'decodes forged %j to nothing',
    (data) => {
      expect(unpackCallback(data)).toBeUndefined();
    },
  );
});
