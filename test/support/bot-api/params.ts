// Request parameters the way the Bot API reads them: the query string, then a JSON,
// urlencoded or multipart body; object-valued fields may arrive as JSON text in any of them.
import type { IncomingMessage } from 'node:http';
import { badRequest } from './errors.ts';

export type RawParams = Record<string, unknown>;

/** An uploaded file part of a multipart request, bytes kept; recorded calls show its name and size only. */
export class UploadedFile {
  readonly filename: string;
  /** the part's Content-Type, '' when it had none */
  readonly type: string;
  readonly bytes: Buffer;

  constructor(filename: string, type: string, bytes: Buffer) {
    this.filename = filename;
    this.type = type;
    this.bytes = bytes;
  }

  get size(): number {
    return this.bytes.length;
  }

  toJSON(): { filename: string; size: number } {
    return { filename: this.filename, size: this.size };
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readParams(req: IncomingMessage, url: URL): Promise<RawParams> {
  const params: RawParams = Object.fromEntries(url.searchParams);
  const body = await readBody(req);
  if (body.length === 0) return params;
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw badRequest("can't parse JSON object");
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw badRequest("can't parse JSON object");
    }
    return { ...params, ...(parsed as RawParams) };
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { ...params, ...Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
  }
  if (type.startsWith('multipart/form-data')) {
    const form = await new Request('http://emulator.invalid/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: new Uint8Array(body),
    })
      .formData()
      .catch(() => {
        throw badRequest("can't parse multipart/form-data request");
      });
    for (const [key, value] of form) {
      params[key] = typeof value === 'string' ? value : new UploadedFile(value.name, value.type, Buffer.from(await value.arrayBuffer()));
    }
    return params;
  }
  return params;
}

/** Typed access to one request's parameters; absent means undefined, null or "". */
export class Params {
  readonly raw: RawParams;

  constructor(raw: RawParams) {
    this.raw = raw;
  }

  has(name: string): boolean {
    const value = this.raw[name];
    return value !== undefined && value !== null && value !== '';
  }

  string(name: string): string | undefined {
    const value = this.raw[name];
    if (!this.has(name)) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw badRequest(`field "${name}" must be of type String`);
  }

  /** An integer, from a JSON number or a decimal string; anything else reads as absent, like Telegram's 0. */
  int(name: string): number | undefined {
    const value = this.raw[name];
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
    return undefined;
  }

  number(name: string): number | undefined {
    const value = this.raw[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
    return undefined;
  }

  bool(name: string): boolean {
    const value = this.raw[name];
    return value === true || value === 1 || value === 'true' || value === 'True' || value === '1';
  }

  /** A file uploaded in this field; undefined for anything else (a string is a file_id or URL). */
  file(name: string): UploadedFile | undefined {
    const value = this.raw[name];
    return value instanceof UploadedFile ? value : undefined;
  }

  /** An object or array field, given as JSON or as JSON text. */
  json(name: string, whatForError: string): unknown {
    const value = this.raw[name];
    if (!this.has(name)) return undefined;
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw badRequest(`can't parse ${whatForError} JSON object`);
    }
  }
}
