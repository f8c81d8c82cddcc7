// Direct Bot API calls against the emulator, for its own tests (no Telegraf in between).
import { expect } from 'vitest';
import type { ApiResponse, BotApi } from './bot-api/index.ts';

export type Encoding = 'json' | 'form';

export interface Caller {
  call(method: string, params?: Record<string, unknown>, options?: { as?: Encoding }): Promise<{ status: number; body: ApiResponse }>;
  ok<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  /** The call fails with exactly this status and description (a RegExp matches the description). */
  fails(method: string, params: Record<string, unknown>, code: number, description: string | RegExp): Promise<void>;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export function caller(api: () => BotApi): Caller {
  const call: Caller['call'] = async (method, params = {}, options = {}) => {
    const init: RequestInit =
      options.as === 'form'
        ? { method: 'POST', body: new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, asText(v)])) }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) };
    const response = await fetch(`${api().apiRoot}/bot${api().token}/${method}`, init);
    return { status: response.status, body: (await response.json()) as ApiResponse };
  };
  return {
    call,
    async ok<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const { status, body } = await call(method, params);
      if (!body.ok) throw new Error(`${method} failed: ${status} ${body.description}`);
      return body.result as T;
    },
    async fails(method, params, code, description) {
      const { status, body } = await call(method, params);
      const expected = typeof description === 'string' ? description : expect.stringMatching(description);
      expect(body).toMatchObject({ ok: false, error_code: code, description: expected });
      expect(status).toBe(code);
    },
  };
}
