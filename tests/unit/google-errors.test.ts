// Spec §8: Google sign-in errors read Google's description, else 'Google auth error' (Google
// refused without one) or 'Google login failed' (no answer: script, popup); our server's refusal
// reads its message, else 'Failed to login with Google'.
import { createInstance } from 'i18next';
import { FetchError } from 'ofetch';
import { describe, expect, it } from 'vitest';
import { GoogleAuthError } from '@/features/auth/lib/google';
import { googleErrorText } from '@/features/auth/lib/google-error';
import { load } from './locale-helpers';

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: { en: { errors: load('en', 'errors') } },
  interpolation: { escapeValue: false },
});
const t = i18n.t.bind(i18n);

function refusal(status: number, data: unknown): FetchError {
  const err = new FetchError(`[POST] "/api/v1/auth/google/": ${status}`);
  Object.assign(err, { status, statusCode: status, data, response: { status, _data: data } });
  return err;
}

describe('Google error texts (spec §8)', () => {
  it('shows Google description, else Google auth error, else Google login failed', () => {
    expect(googleErrorText(new GoogleAuthError('auth', 'The user denied access'), t)).toBe('The user denied access');
    expect(googleErrorText(new GoogleAuthError('auth'), t)).toBe('Google auth error');
    expect(googleErrorText(new GoogleAuthError('login'), t)).toBe('Google login failed');
  });
  it('a refusal of our server reads its message, else the catalogue text', () => {
    expect(
      googleErrorText(refusal(400, { detail: 'Failed to login with Google', code: 'google_login_failed' }), t),
    ).toBe('Failed to login with Google');
    expect(googleErrorText(refusal(400, { detail: 'Google sign-in is not configured on this server' }), t)).toBe(
      'Google sign-in is not configured on this server',
    );
    expect(googleErrorText(refusal(400, {}), t)).toBe('Failed to login with Google');
  });
});
