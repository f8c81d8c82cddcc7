import type { Readable } from 'node:stream';

export type CappedBody = { text: string; truncated: boolean };

/**
 * Reads a response body up to `maxBytes`. Past that it stops and destroys the stream, so the
 * rest is never downloaded nor held; `truncated` says so. A character cut at the cap is left out.
 */
export const readCapped = async (body: Readable, maxBytes: number): Promise<CappedBody> => {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (!body.readableEnded) body.destroy();
  }
  const bytes = Buffer.concat(chunks);
  // In streaming mode the decoder holds back an incomplete last character instead of emitting U+FFFD.
  return { text: truncated ? new TextDecoder().decode(bytes, { stream: true }) : bytes.toString('utf8'), truncated };
};

/** The Content-Length the answer announced, when it is a plain number. */
export const announcedLength = (headers: Record<string, string | string[] | undefined>): number | undefined => {
  const value = headers['content-length'];
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
};
