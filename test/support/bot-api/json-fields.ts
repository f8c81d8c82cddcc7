// Fields of a JSON object read the way the Bot API server reads them (tdlib's JsonObject): a
// String field also takes a Number, absent optional fields read as ""/0/false, and the errors say
// `Can't find field "x"` or `Field "x" must be of type String`, which callers prefix with the
// object they were reading ("can't parse inline query result: ...").
import type { BotApiError } from './errors.ts';

export type FieldFailure = (detail: string) => BotApiError;

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export class JsonFields {
  readonly object: JsonObject;
  private readonly fail: FieldFailure;

  constructor(object: JsonObject, fail: FieldFailure) {
    this.object = object;
    this.fail = fail;
  }

  /** Present and not null (JSON serializers often write null for "not set"). */
  has(name: string): boolean {
    return this.object[name] !== undefined && this.object[name] !== null;
  }

  requiredString(name: string): string {
    if (!this.has(name)) throw this.fail(`Can't find field "${name}"`);
    return this.optionalString(name);
  }

  optionalString(name: string): string {
    const value = this.object[name];
    if (!this.has(name)) return '';
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
    throw this.fail(`Field "${name}" must be of type String`);
  }

  optionalBool(name: string): boolean {
    const value = this.object[name];
    if (!this.has(name)) return false;
    if (typeof value === 'boolean') return value;
    throw this.fail(`Field "${name}" must be of type Boolean`);
  }

  optionalNumber(name: string): number {
    const value = this.object[name];
    if (!this.has(name)) return 0;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
    throw this.fail(`Field "${name}" must be of type Number`);
  }

  requiredNumber(name: string): number {
    if (!this.has(name)) throw this.fail(`Can't find field "${name}"`);
    return this.optionalNumber(name);
  }

  optionalObject(name: string): JsonObject | undefined {
    const value = this.object[name];
    if (!this.has(name)) return undefined;
    if (isObject(value)) return value;
    throw this.fail(`Field "${name}" must be of type Object`);
  }

  requiredObject(name: string): JsonObject {
    if (!this.has(name)) throw this.fail(`Can't find field "${name}"`);
    return this.optionalObject(name) as JsonObject;
  }

  requiredArray(name: string): unknown[] {
    const value = this.object[name];
    if (!this.has(name)) throw this.fail(`Can't find field "${name}"`);
    if (Array.isArray(value)) return value;
    throw this.fail(`Field "${name}" must be of type Array`);
  }
}
