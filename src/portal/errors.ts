// One class per way a portal call can fail, on a shared base. Two properties of each type say
// what it means, so no caller classifies errors again: `transient` (another try may succeed: the
// circuit breaker counts it, retry and "Try again" repeat it) and `failure` (what the user is told).

/** The portal could not be reached in time, failed on its side, or answered something unusable. */
export type PortalFailure = 'unavailable' | 'failed' | 'unreadable';

export abstract class PortalError extends Error {
  abstract readonly code: string;
  abstract readonly transient: boolean;
  abstract readonly failure: PortalFailure;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request never got an HTTP answer (connection refused, reset, DNS). */
export class PortalNetworkError extends PortalError {
  readonly code = 'PORTAL_NETWORK';
  readonly transient = true;
  readonly failure = 'unavailable';
}

/** No complete answer within the configured time. */
export class PortalTimeoutError extends PortalError {
  readonly code = 'PORTAL_TIMEOUT';
  readonly transient = true;
  readonly failure = 'unavailable';
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`portal did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The most of an error body the log keeps: enough to recognise it, too little to carry records. */
const LOGGED_BODY_CHARACTERS = 300;

/** The portal answered with a non-2xx HTTP status; a 5xx may pass. */
export class PortalHttpError extends PortalError {
  readonly code = 'PORTAL_HTTP';
  readonly failure = 'failed';
  readonly transient: boolean;
  readonly status: number;
  /** The start of the body, for the log only. */
  readonly body: string;
  constructor(status: number, body = '') {
    super(`portal answered HTTP ${status}`);
    this.status = status;
    this.transient = status >= 500;
    this.body = body.slice(0, LOGGED_BODY_CHARACTERS);
  }
}

/** The envelope said `success: false`. */
export class PortalRejectedError extends PortalError {
  readonly code = 'PORTAL_REJECTED';
  readonly transient = false;
  readonly failure = 'failed';
  readonly errorCode: unknown;
  constructor(errorCode: unknown) {
    super(`portal answered success=false, error_code=${JSON.stringify(errorCode ?? null)}`);
    this.errorCode = errorCode;
  }
}

/** The body is not JSON. */
export class PortalNotJsonError extends PortalError {
  readonly code = 'PORTAL_NOT_JSON';
  readonly transient = false;
  readonly failure = 'unreadable';
}

/** The JSON is not the documented envelope, or its records do not match the spec. */
export class PortalSchemaError extends PortalError {
  readonly code = 'PORTAL_SCHEMA';
  readonly transient = false;
  readonly failure = 'unreadable';
}

/** The answer is larger than the bot reads (PORTAL_MAX_BODY_BYTES). */
export class PortalBodyTooLargeError extends PortalError {
  readonly code = 'PORTAL_TOO_LARGE';
  readonly transient = false;
  readonly failure = 'unreadable';
  readonly maxBytes: number;
  constructor(maxBytes: number, announced?: number, together?: string) {
    super(
      together !== undefined
        ? `portal ${together} exceed the bytes read together; reading stopped`
        : announced === undefined
          ? `portal answer is larger than ${maxBytes} bytes; reading stopped there`
          : `portal announced ${announced} bytes, more than the ${maxBytes} bytes read`,
    );
    this.maxBytes = maxBytes;
  }
}

/** A portal failure that another try may get past. */
export const isTransient = (error: unknown): boolean => error instanceof PortalError && error.transient;
