import { describe, expect, it } from 'vitest';
import {
  isTransient,
  PortalBodyTooLargeError,
  PortalHttpError,
  PortalNetworkError,
  PortalNotJsonError,
  PortalRejectedError,
  PortalSchemaError,
  PortalTimeoutError,
} from '../../src/portal/errors.ts';
import { PortalCircuitOpenError } from '../../src/portal/resilience/errors.ts';

// Each failure says once what it means: whether another try may succeed, and what the user is told.

describe('portal errors', () => {
  it.each([
    ['the network', new PortalNetworkError('reset'), true, 'unavailable', 'PORTAL_NETWORK'],
    ['a timeout', new PortalTimeoutError(500), true, 'unavailable', 'PORTAL_TIMEOUT'],
    ['an open circuit', new PortalCircuitOpenError(1000), true, 'unavailable', 'PORTAL_CIRCUIT_OPEN'],
    ['HTTP 503', new PortalHttpError(503), true, 'failed', 'PORTAL_HTTP'],
    ['HTTP 404', new PortalHttpError(404), false, 'failed', 'PORTAL_HTTP'],
    ['success: false', new PortalRejectedError('INTERNAL'), false, 'failed', 'PORTAL_REJECTED'],
    ['a body that is not JSON', new PortalNotJsonError('x'), false, 'unreadable', 'PORTAL_NOT_JSON'],
    ['records off the spec', new PortalSchemaError('x'), false, 'unreadable', 'PORTAL_SCHEMA'],
    ['a body over the cap', new PortalBodyTooLargeError(65_536), false, 'unreadable', 'PORTAL_TOO_LARGE'],
  ])('%s: transient %s, told as %s', (_, error, transient, failure, code) => {
    expect(error.transient).toBe(transient);
    expect(isTransient(error)).toBe(transient);
    expect(error.failure).toBe(failure);
    expect(error.code).toBe(code);
  });

  it('takes nothing else for a transient portal failure', () => {
    expect(isTransient(new Error('ECONNRESET'))).toBe(false);
    expect(isTransient(undefined)).toBe(false);
  });

  it('keeps at most 300 characters of an error body, for the log', () => {
    expect(new PortalHttpError(500, 'x'.repeat(5000)).body).toHaveLength(300);
  });
});
