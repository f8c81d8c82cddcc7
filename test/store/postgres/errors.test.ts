import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../src/store/errors.ts';
import { failureReason, finalOpenError, isConnectionFailure, toPostgresUnavailable } from '../../../src/store/postgres/errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('failures of PostgreSQL', () => {
  it('tells a lost or refused connection from any other failure', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }),
      Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''), { code: 'ECONNREFUSED' }),
    ]) {
      expect(isConnectionFailure(error), error.message).toBe(true);
    }
    for (const error of [
      withCode('relation "user_settings" does not exist', '42P01'),
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('canceling statement due to statement timeout', '57014'),
      new RangeError('not a Telegram id: 1.5'),
      'a string',
    ]) {
      expect(isConnectionFailure(error), String(error)).toBe(false);
    }
  });

  it('takes a statement or lock timeout for the store not answering: unavailable, not a bug', () => {
    for (const error of [
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('canceling statement due to lock timeout', '55P03'),
      withCode('could not obtain lock on row in relation "rate_windows"', '55P03'),
      new Error('Query read timeout'),
    ]) {
      expect(toPostgresUnavailable(error, 'postgres://db:5432/bot'), error.message).toBeInstanceOf(StoreUnavailableError);
    }
    expect(toPostgresUnavailable(withCode('division by zero', '22012'), 'postgres://db:5432/bot')).not.toBeInstanceOf(StoreUnavailableError);
  });

  it('names the database in a StoreUnavailableError, and leaves other failures as they were', () => {
    const lost = toPostgresUnavailable(withCode('read ECONNRESET', 'ECONNRESET'), 'postgres://db:5432/bot');
    expect(lost).toBeInstanceOf(StoreUnavailableError);
    expect((lost as Error).message).toBe('cannot write to the store postgres://db:5432/bot: read ECONNRESET');
    const other = withCode('relation "x" does not exist', '42P01');
    expect(toPostgresUnavailable(other, 'postgres://db:5432/bot')).toBe(other);
  });

  it('says in words what an AggregateError without a message holds', () => {
    const error = new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')], '');
    expect(failureReason(error)).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432');
  });

  it('refuses at start what another try would not mend, saying what to do', () => {
    expect(finalOpenError(withCode('password authentication failed for user "bot"', '28P01'), 'postgres://db:5432/bot')).toMatchObject({
      message: 'cannot open the store postgres://db:5432/bot: password authentication failed for user "bot". Check the user name and password in DATABASE_URL.',
    });
    expect(finalOpenError(withCode('no pg_hba.conf entry for host', '28000'), 'postgres://db:5432/bot')?.hint).toMatch(/pg_hba\.conf/);
    expect(finalOpenError(withCode('connect ECONNREFUSED', 'ECONNREFUSED'), 'postgres://db:5432/bot')).toBeUndefined();
  });
});
