import type { Readable } from 'node:stream';

/** `bytes`: how many bytes of the body `text` was decoded from. */
export type CappedBody = { text: string; bytes: number; truncated: boolean; overBudget: boolean };

/**
 * The bytes of portal answers being read at once, across calls: what the heap holds for them
 * before they are parsed. Each answer is capped on its own; this caps them together.
 */
export type ByteBudget = { take(bytes: number): boolean; give(bytes: number): void };

export const createByteBudget = (maxBytes: number): ByteBudget => {
  let used = 0;
  return {
    take(bytes) {
      if (used + bytes > maxBytes) return false;
      used += bytes;
      return true;
    },
    give(bytes) {
      used -= bytes;
    },
  };
};

const UNLIMITED: ByteBudget = { take: () => true, give: () => undefined };

/**
 * Reads a response body up to `maxBytes`. Past that it stops and destroys the stream, so the
 * rest is never downloaded nor held; `truncated` says so. A character cut at the cap is left out.
 * Every chunk is taken from `budget` while the body is read: when the budget is spent, reading
 * stops the same way and `overBudget` says so.
 */
export const readCapped = async (body: Readable, maxBytes: number, budget: ByteBudget = UNLIMITED): Promise<CappedBody> => {
  const chunks: Buffer[] = [];
  let size = 0;
  let taken = 0;
  let truncated = false;
  let overBudget = false;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      if (!budget.take(part.length)) {
        overBudget = true;
        break;
      }
      taken += part.length;
      chunks.push(part);
      size += part.length;
      if (part !== chunk) {
        truncated = true;
        break;
      }
    }
  } finally {
    budget.give(taken);
    if (!body.readableEnded) body.destroy();
  }
  if (overBudget) return { text: '', bytes: 0, truncated: true, overBudget };
  const bytes = Buffer.concat(chunks);
  // In streaming mode the decoder holds back an incomplete last character instead of emitting U+FFFD.
  const text = truncated ? new TextDecoder().decode(bytes, { stream: true }) : bytes.toString('utf8');
  return { text, bytes: size, truncated, overBudget };
};

/** The Content-Length the answer announced, when it is a plain number. */
export const announcedLength = (headers: Record<string, string | string[] | undefined>): number | undefined => {
  const value = headers['content-length'];
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
};
