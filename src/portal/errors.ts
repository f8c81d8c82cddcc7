// One class per way a portal call can fail, on a shared base, so the error boundary can tell
// "the portal is unreachable" from "the portal answered something we cannot use".

export abstract class PortalError extends Error {
  abstract readonly code: string;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The request never got an HTTP answer (connection refused, reset, DNS). */
export class PortalNetworkError extends PortalError {
  readonly code = 'PORTAL_NETWORK';
}

/** No complete answer within the configured time. */
export class PortalTimeoutError extends PortalError {
  readonly code = 'PORTAL_TIMEOUT';
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`portal did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The portal answered with a non-2xx HTTP status. */
export class PortalHttpError extends PortalError {
  readonly code = 'PORTAL_HTTP';
  readonly status: number;
  /** The start of the body, for the log only. */
  readonly body: string;
  constructor(status: number, body = '') {
    super(`portal answered HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** The envelope said `success: false`. */
export class PortalRejectedError extends PortalError {
  readonly code = 'PORTAL_REJECTED';
  readonly errorCode: unknown;
  constructor(errorCode: unknown) {
    super(`portal answered success=false, error_code=${JSON.stringify(errorCode ?? null)}`);
    this.errorCode = errorCode;
  }
}

/** The body was not JSON, or did not match the schema of the spec. */
export class PortalSchemaError extends PortalError {
  readonly code = 'PORTAL_SCHEMA';
}

/** The answer is larger than the bot reads (PORTAL_MAX_BODY_BYTES): unreadable, as a bad schema is. */
export class PortalBodyTooLargeError extends PortalSchemaError {
  readonly maxBytes: number;
  constructor(maxBytes: number, announced?: number) {
    super(
      announced === undefined
        ? `portal answer is larger than ${maxBytes} bytes; reading stopped there`
        : `portal announced ${announced} bytes, more than the ${maxBytes} bytes read`,
    );
    this.maxBytes = maxBytes;
  }
}
