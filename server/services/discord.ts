// Discord OAuth2 for the verified Discord follow (decisions §14): the authorization-code flow with
// the scopes `identify guilds.members.read`, the code exchanged at `{apiBase}/oauth2/token`, the
// account read from `/users/@me`, and the guild member call `/users/@me/guilds/{guild}/member`
// (200: in the server, 404: not) asked with the player's own token. The authorize page is on
// discord.com whatever DISCORD_API_BASE says: only API calls go to the base (tests' stand-in).
// Discord refusing a code is a 400; Discord not answering (timeout, 5xx, 429, network) is
// `DiscordDown`, which callers turn into a 503 that asks to try again, never a raw 500.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { DiscordSettings } from '../config';
import { refuse } from '../lib/errors';

export const DISCORD_AUTHORIZE_URL = 'https://discord.com/oauth2/authorize';
export const DISCORD_SCOPES = 'identify guilds.members.read';
const MAX_BODY_BYTES = 64 * 1024;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Discord did not give an answer we can act on (timeout, network, 5xx, rate limit). */
export class DiscordDown extends Error {
  constructor(readonly why: string) {
    super(`Discord did not answer: ${why}`);
    this.name = 'DiscordDown';
  }
}

export const discordRedirectUri = (appUrl: string) => `${appUrl}/auth/discord/callback`;

/** Where the player authorizes the app; Discord sends them back to the redirect URI with `code` and `state`. */
export function discordAuthorizeUrl(settings: DiscordSettings, appUrl: string, state: string): string {
  const url = new URL(DISCORD_AUTHORIZE_URL);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: settings.clientId,
    scope: DISCORD_SCOPES,
    redirect_uri: discordRedirectUri(appUrl),
    state,
    // Asked again by "Check again" after the token expired: no consent screen when already given.
    prompt: 'none',
  }).toString();
  return url.toString();
}

interface DiscordAnswer {
  status: number;
  body: Record<string, unknown>;
}

async function discordCall(
  settings: DiscordSettings,
  path: string,
  init: { bearer?: string; form?: URLSearchParams },
): Promise<DiscordAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (init.bearer) headers.Authorization = `Bearer ${init.bearer}`;
  if (init.form) {
    // Discord's documented way: the client's credentials as HTTP Basic, the grant as a form.
    headers.Authorization = `Basic ${Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64')}`;
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  let res: Response;
  try {
    res = await fetch(`${settings.apiBase}${path}`, {
      ...(init.form ? { method: 'POST', body: init.form } : {}),
      headers,
      signal: AbortSignal.timeout(settings.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    throw new DiscordDown((err as Error).name === 'TimeoutError' ? 'timeout' : 'network');
  }
  if (res.status === 429 || res.status >= 500) {
    await res.body?.cancel().catch(() => undefined);
    throw new DiscordDown(`status ${res.status}`);
  }
  let body: unknown = {};
  try {
    const text = await res.text();
    if (text.length > MAX_BODY_BYTES) throw new Error('too large');
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new DiscordDown('unreadable answer');
  }
  return { status: res.status, body: body && typeof body === 'object' ? (body as Record<string, unknown>) : {} };
}

export const discordCodeInvalid = () =>
  refuse('discord_code_invalid', 'Discord did not accept this sign-in. Connect Discord again.');

export interface DiscordToken {
  accessToken: string;
  /** When Discord expires the token (ms). */
  expiresAt: number;
}

/** Exchanges the authorization code from the callback for the player's access token. */
export async function exchangeDiscordCode(
  settings: DiscordSettings,
  appUrl: string,
  code: string,
  now = Date.now(),
): Promise<DiscordToken> {
  const { status, body } = await discordCall(settings, '/oauth2/token', {
    form: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: discordRedirectUri(appUrl) }),
  });
  // 400 invalid_grant: a used, expired or forged code; 401: our credentials (an operator's mistake).
  if (status !== 200) throw discordCodeInvalid();
  const accessToken = typeof body.access_token === 'string' ? body.access_token : '';
  const scopes = typeof body.scope === 'string' ? body.scope.split(' ') : [];
  if (!accessToken || accessToken.length > 4096 || CONTROL_CHARS.test(accessToken)) throw discordCodeInvalid();
  // The player may untick a scope on Discord's page; without it the member call cannot be asked.
  if (!scopes.includes('guilds.members.read') || !scopes.includes('identify'))
    throw refuse('discord_scope_missing', 'Allow Discord to show your server membership, then connect again.');
  const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 0;
  return { accessToken, expiresAt: now + expiresIn * 1000 };
}

export interface DiscordUser {
  id: string;
  /** The display name, else the username. */
  name: string;
}

export async function fetchDiscordUser(settings: DiscordSettings, accessToken: string): Promise<DiscordUser> {
  const { status, body } = await discordCall(settings, '/users/@me', { bearer: accessToken });
  if (status !== 200) throw discordCodeInvalid();
  const id = typeof body.id === 'string' && /^\d{1,20}$/.test(body.id) ? body.id : '';
  if (!id) throw discordCodeInvalid();
  const pick = (v: unknown) => (typeof v === 'string' && v && !CONTROL_CHARS.test(v) ? v.slice(0, 100) : null);
  return { id, name: pick(body.global_name) ?? pick(body.username) ?? id };
}

/**
 * The guild member call: 'member' (200), 'not_member' (404: Unknown Guild or Unknown Member), or
 * 'unlinked' when the token no longer works (401 revoked or expired, 403 without the scope).
 */
export async function discordMembership(
  settings: DiscordSettings,
  accessToken: string,
): Promise<'member' | 'not_member' | 'unlinked'> {
  const { status } = await discordCall(settings, `/users/@me/guilds/${settings.guildId}/member`, {
    bearer: accessToken,
  });
  if (status === 200) return 'member';
  if (status === 404) return 'not_member';
  if (status === 401 || status === 403) return 'unlinked';
  throw new DiscordDown(`status ${status}`);
}

// The stored token is sealed with a key only the environment holds (AES-256-GCM).
const tokenKey = (settings: DiscordSettings) =>
  createHash('sha256').update(`pxt discord token\0${settings.clientSecret}`).digest();

export function sealDiscordToken(settings: DiscordSettings, accessToken: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', tokenKey(settings), iv);
  const data = Buffer.concat([cipher.update(accessToken, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
}

/** The access token, or null when it cannot be opened (another client secret, a damaged value). */
export function openDiscordToken(settings: DiscordSettings, sealed: string): string | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', tokenKey(settings), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
