import { FetchError } from 'ofetch';
import { describe, expect, it } from 'vitest';
import { fieldMessage, registrationMessage, toApiFailure } from '@/lib/api-errors';

function fetchError(status: number, data: unknown): FetchError {
  const err = new FetchError(`[POST] "/api/v1/x": ${status}`);
  Object.assign(err, { status, statusCode: status, data, response: { status } });
  return err;
}

describe('error catalogue (spec §8)', () => {
  it('prefers detail, then message, then the default text of the call', () => {
    expect(toApiFailure(fetchError(400, { detail: 'Nope', code: 'x' }), 'Login failed')).toMatchObject({
      message: 'Nope',
      code: 'x',
      fromServer: true,
      status: 400,
    });
    expect(toApiFailure(fetchError(400, { message: 'Msg' }), 'Login failed').message).toBe('Msg');
    expect(toApiFailure(fetchError(400, {}), 'Login failed')).toMatchObject({
      message: 'Login failed',
      fromServer: false,
    });
    expect(toApiFailure(fetchError(502, 'Bad gateway'), 'Login failed').message).toBe('Bad gateway');
  });

  it('marks server faults (the error-modal case) and nothing else', () => {
    expect(toApiFailure(fetchError(500, { detail: 'Internal Server Error' }), 'x').serverFault).toBe(true);
    expect(toApiFailure(fetchError(503, {}), 'x').serverFault).toBe(true);
    // A full password-hashing queue asks for a retry: no error modal.
    expect(toApiFailure(fetchError(503, { detail: 'The server is busy.', code: 'busy' }), 'x').serverFault).toBe(false);
    expect(toApiFailure(fetchError(400, { detail: 'costs 500 gems' }), 'x').serverFault).toBe(false);
    expect(toApiFailure(new TypeError('Failed to fetch'), 'x')).toMatchObject({ status: 0, serverFault: false });
  });

  it('keeps the field errors of decisions §4', () => {
    const f = toApiFailure(
      fetchError(400, {
        detail: 'Bad',
        code: 'invalid',
        errors: [
          { field: 'email', message: 'Enter a valid email' },
          { field: 'x', nope: 1 },
        ],
      }),
      'x',
    );
    expect(f.fields).toEqual([{ field: 'email', message: 'Enter a valid email' }]);
    expect(fieldMessage(f, 'email')).toBe('Enter a valid email');
    expect(fieldMessage(f, 'password')).toBeNull();
  });

  it('reads wallet errors ({code, message}) and plain Errors', () => {
    expect(toApiFailure({ code: -32002, message: 'Request already pending' }, 'Wallet login failed').message).toBe(
      'Request already pending',
    );
    expect(toApiFailure(new Error('The wallet returned no account'), 'Wallet login failed').message).toBe(
      'The wallet returned no account',
    );
  });

  it('orders registration errors: e-mail field, first field, body fields, then detail', () => {
    const reg = (data: unknown) => registrationMessage(toApiFailure(fetchError(400, data), 'Registration failed'));
    expect(
      reg({
        detail: 'd',
        errors: [
          { field: 'password', message: 'pw' },
          { field: 'email', message: 'em' },
        ],
      }),
    ).toBe('em');
    expect(reg({ detail: 'd', errors: [{ field: 'password', message: 'pw' }] })).toBe('pw');
    expect(reg({ email: ['taken'], detail: 'd' })).toBe('taken');
    expect(reg({ confirm_password: 'differs' })).toBe('differs');
    expect(reg({ detail: 'This email is already in use.' })).toBe('This email is already in use.');
    expect(reg({})).toBe('Registration failed');
  });
});
