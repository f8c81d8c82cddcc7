import { PortalError } from '../errors.ts';

/** The circuit breaker is open: the portal failed repeatedly, so the call was not sent. */
export class PortalCircuitOpenError extends PortalError {
  readonly code = 'PORTAL_CIRCUIT_OPEN';
  readonly transient = true;
  readonly failure = 'unavailable';
  readonly retryAfterMs: number;
  constructor(retryAfterMs: number) {
    super(`portal is considered down; not calling it for another ${retryAfterMs} ms`);
    this.retryAfterMs = retryAfterMs;
  }
}
