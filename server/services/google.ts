// Google sign-in: the client gets an access token from Google's script; the server asks Google's
// OpenID userinfo endpoint who it belongs to. Anything but a clear, verified answer is a refusal
// (400 'Failed to login with Google'), never a 5xx.
import { isValidEmail } from '@shared/validation';
import { refuse } from '../lib/errors';

export interface GoogleProfile {
  sub: string;
  email: string;
  name: string | null;
}

const TIMEOUT_MS = 5000;
const MAX_BODY_BYTES = 64 * 1024;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

export const googleFailed = (code = 'google_login_failed') => refuse(code, 'Failed to login with Google');

/** GETs (or POSTs a form to) a Google endpoint and parses its JSON; anything but a 200 with JSON is a refusal. */
async function googleJson(
  url: string,
  headers: Record<string, string> = {},
  form?: URLSearchParams,
): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    const res = await fetch(url, {
      ...(form ? { method: 'POST', body: form } : {}),
      headers: { ...headers, Accept: 'application/json' },
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
  return body as Record<string, unknown>;
}

/**
 * Userinfo alone would accept a token Google issued to any other app (whose owner could then sign
 * in as its users here), so the token's audience must be this app's client id first.
 */
async function checkAudience(tokeninfoUrl: string, clientId: string, accessToken: string): Promise<void> {
  const url = new URL(tokeninfoUrl);
  url.searchParams.set('access_token', accessToken);
  const info = await googleJson(url.toString());
  if (info.aud !== clientId && info.azp !== clientId) throw googleFailed('google_wrong_audience');
}

export interface GoogleEndpoints {
  clientId: string | null;
  userinfoUrl: string;
  tokeninfoUrl: string;
}

export async function fetchGoogleProfile(google: GoogleEndpoints, accessToken: string): Promise<GoogleProfile> {
  if (!google.clientId) throw refuse('google_not_configured', 'Google sign-in is not configured on this server');
  await checkAudience(google.tokeninfoUrl, google.clientId, accessToken);
  const info = await googleJson(google.userinfoUrl, { Authorization: `Bearer ${accessToken}` });
  const sub = typeof info.sub === 'string' ? info.sub : typeof info.sub === 'number' ? String(info.sub) : '';
  const email = typeof info.email === 'string' ? info.email.trim().toLowerCase() : '';
  if (!sub || sub.length > 255 || CONTROL_CHARS.test(sub)) throw googleFailed();
  if (!email || email.length > 254 || !isValidEmail(email) || CONTROL_CHARS.test(email)) throw googleFailed();
  // Google sends a boolean; some OpenID providers send the string "true".
  if (info.email_verified !== true && info.email_verified !== 'true') throw googleFailed('google_email_not_verified');
  const name = typeof info.name === 'string' && !CONTROL_CHARS.test(info.name) ? info.name.slice(0, 100) : null;
  return { sub, email, name };
}

export interface GoogleCodeExchange {
  clientId: string | null;
  clientSecret: string | null;
  tokenUrl: string;
}

/**
 * The code flow (spec §7): the popup's authorization code is exchanged at Google's token endpoint
 * with the client secret. The access token that comes back is then checked exactly like one the
 * token flow sends (audience, verified e-mail). A code Google refuses (used, expired, forged) is a
 * 400 like any other Google refusal.
 */
export async function exchangeGoogleCode(google: GoogleCodeExchange, code: string): Promise<string> {
  if (!google.clientId || !google.clientSecret)
    throw refuse('google_code_flow_not_configured', 'Google sign-in with a code is not configured on this server');
  const answer = await googleJson(
    google.tokenUrl,
    {},
    // A code from the GIS popup (ux_mode 'popup') is bound to the redirect URI 'postmessage'.
    new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: google.clientId,
      client_secret: google.clientSecret,
      redirect_uri: 'postmessage',
    }),
  );
  const accessToken = typeof answer.access_token === 'string' ? answer.access_token : '';
  if (!accessToken || accessToken.length > 4096 || CONTROL_CHARS.test(accessToken)) throw googleFailed();
  return accessToken;
}
