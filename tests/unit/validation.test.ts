import { describe, expect, it } from 'vitest';
import {
  confirmMessage,
  emailMessage,
  firstUsernameMessage,
  firstUsernameValid,
  loginCanSubmit,
  loginLooksActive,
  newEmailMessage,
  passwordMessage,
  passwordPairValid,
  registrationCanSubmit,
  usernameMessage,
} from '../../src/features/auth/lib/validation';
import { en } from './locale-helpers';

const text = (key: string | null) => (key ? en(`auth:${key}`) : null);

describe('spec §5 e-mail rules', () => {
  it('accepts the loose pattern and says "Enter a valid email" otherwise', () => {
    expect(emailMessage('')).toBeNull();
    expect(emailMessage('a@b.co')).toBeNull();
    expect(emailMessage('  a@b.co ')).toBeNull();
    for (const bad of ['plain', 'a@b', 'a b@c.d', '@b.c']) expect(text(emailMessage(bad))).toBe('Enter a valid email');
  });
  it('update e-mail: required when empty, "invalid email" when malformed, fine when the trimmed value is valid', () => {
    expect(text(newEmailMessage(''))).toBe('Email is required');
    expect(text(newEmailMessage('   '))).toBe('Email is required');
    expect(text(newEmailMessage('nope'))).toBe('invalid email');
    expect(newEmailMessage(' me@x.io ')).toBeNull();
  });
});

describe('spec §5 password rules', () => {
  it('needs 8+ characters with a letter and a digit', () => {
    expect(passwordMessage('abc12345')).toBeNull();
    for (const bad of ['abc1234', 'abcdefgh', '12345678']) expect(text(passwordMessage(bad))).toBe('Use 8 or more characters mixing letters and numbers');
  });
  it('the repeat must match and also follow the rule', () => {
    expect(text(confirmMessage('abc12345', 'abc12346'))).toBe('Passwords do not match');
    expect(confirmMessage('abc12345', 'abc12345')).toBeNull();
    expect(text(confirmMessage('abcdefgh', 'abcdefgh'))).toBe('Use 8 or more characters mixing letters and numbers');
    expect(confirmMessage('abc12345', '')).toBeNull();
  });
  it('a password pair is valid only when both are filled, valid and equal', () => {
    expect(passwordPairValid('abc12345', 'abc12345')).toBe(true);
    expect(passwordPairValid('abc12345', '')).toBe(false);
    expect(passwordPairValid('abcdefgh', 'abcdefgh')).toBe(false);
    expect(passwordPairValid('abc12345', 'abc123456')).toBe(false);
  });
});

describe('spec §5 login', () => {
  it('the button looks active with a valid e-mail and a password longer than 1 character', () => {
    expect(loginLooksActive('a@b.co', 'xy')).toBe(true);
    expect(loginLooksActive('a@b.co', 'x')).toBe(false);
    expect(loginLooksActive('a@b', 'xyz')).toBe(false);
  });
  it('submitting needs the password rule too (else "incorrect credentials")', () => {
    expect(loginCanSubmit('a@b.co', 'xy')).toBe(false);
    expect(loginCanSubmit('a@b.co', 'abc12345')).toBe(true);
    expect(en('auth:login.incorrect')).toBe('Incorrect credentials');
  });
});

describe('spec §5 registration', () => {
  const base = { email: 'a@b.co', password: 'abc12345', confirm: 'abc12345', agreed: true };
  it('submit is active only with a valid e-mail, no password errors and all three fields filled', () => {
    expect(registrationCanSubmit(base)).toBe(true);
    expect(registrationCanSubmit({ ...base, email: 'x' })).toBe(false);
    expect(registrationCanSubmit({ ...base, confirm: '' })).toBe(false);
    expect(registrationCanSubmit({ ...base, confirm: 'abc12346' })).toBe(false);
    expect(registrationCanSubmit({ ...base, password: 'short1', confirm: 'short1' })).toBe(false);
  });
});

describe('spec §5 usernames', () => {
  it('first-time: required when empty, too short under 4, exactly 4 shows nothing but is not valid, >4 activates', () => {
    expect(text(firstUsernameMessage(''))).toBe('Username is required');
    expect(text(firstUsernameMessage('abc'))).toBe('Username is too short');
    expect(firstUsernameMessage('abcd')).toBeNull();
    expect(firstUsernameValid('abcd')).toBe(false);
    expect(firstUsernameValid('  abcd  ')).toBe(false);
    expect(firstUsernameValid('abcde')).toBe(true);
    expect(firstUsernameValid('a'.repeat(16))).toBe(false);
  });
  it('update: 5 to 15 characters', () => {
    expect(text(usernameMessage('abcd'))).toBe('Username must be at least 5 characters');
    expect(usernameMessage('abcde')).toBeNull();
    expect(usernameMessage('a'.repeat(15))).toBeNull();
    expect(text(usernameMessage('a'.repeat(16)))).toBe('Username must be at most 15 characters');
    expect(en('auth:validation.usernameError', { message: 'bad' })).toBe('Username error: bad');
  });
});
