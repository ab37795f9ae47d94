// Google sign-in: the client gets an access token from Google's script; the server asks Google's
// OpenID userinfo endpoint who it belongs to. Anything but a clear, verified answer is a refusal
// (400 'Failed to login with Google'), never a 5xx.
import { isValidEmail } from '../../shared/validation';
import { refuse } from '../lib/errors';

export interface GoogleProfile {
  sub: string;
  email: string;
  name: string | null;
}

const TIMEOUT_MS = 5000;
const MAX_BODY_BYTES = 64 * 1024;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export const googleFailed = (code = 'google_login_failed') => refuse(code, 'Failed to login with Google');

export async function fetchGoogleProfile(userinfoUrl: string, accessToken: string): Promise<GoogleProfile> {
  let body: unknown;
  try {
    const res = await fetch(userinfoUrl, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw googleFailed();
    }
    const text = await res.text();
    if (text.length > MAX_BODY_BYTES) throw googleFailed();
    body = JSON.parse(text);
  } catch {
    throw googleFailed();
  }
  if (!body || typeof body !== 'object') throw googleFailed();
  const info = body as Record<string, unknown>;
  const sub = typeof info.sub === 'string' ? info.sub : typeof info.sub === 'number' ? String(info.sub) : '';
  const email = typeof info.email === 'string' ? info.email.trim().toLowerCase() : '';
  if (!sub || sub.length > 255 || CONTROL_CHARS.test(sub)) throw googleFailed();
  if (!email || email.length > 254 || !isValidEmail(email) || CONTROL_CHARS.test(email)) throw googleFailed();
  // Google sends a boolean; some OpenID providers send the string "true".
  if (info.email_verified !== true && info.email_verified !== 'true') throw googleFailed('google_email_not_verified');
  const name = typeof info.name === 'string' && !CONTROL_CHARS.test(info.name) ? info.name.slice(0, 100) : null;
  return { sub, email, name };
}
