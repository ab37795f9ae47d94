// A local stand-in of Discord's OAuth2 and the calls the verified Discord follow makes
// (https://discord.com/developers/docs/topics/oauth2): `POST /oauth2/token` takes only a form body,
// checks the client's credentials (HTTP Basic or in the form) and the redirect URI, and trades a code
// once for a Bearer token; `GET /users/@me` and `GET /users/@me/guilds/{guild}/member` take that
// token. Errors are Discord's: OAuth2's `{error, error_description}` on the token endpoint, `{message,
// code}` elsewhere (401 `0`, 404 Unknown Guild `10004`). `authorize(user)` plays the consent page:
// it mints the code Discord would append to the redirect. `down` answers 502, `hang` never answers.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
}

export interface DiscordStandIn {
  /** DISCORD_API_BASE for the server. */
  apiBase: string;
  clientId: string;
  clientSecret: string;
  guildId: string;
  /** Settings for createTestApp / a server process. */
  env: Record<string, string>;
  /**
   * The consent page: a code for `user`, as Discord appends it to the redirect URI; the code is
   * bound to that URI (the app's own callback unless a test read another from the authorize URL).
   */
  authorize(user: DiscordUser, opts?: { scope?: string; redirectUri?: string }): string;
  /** Discord user id → in the guild. */
  setMember(userId: string, member: boolean): void;
  /** Revokes every token of a user (the player removed the app on Discord). */
  revoke(userId: string): void;
  /** Calls by path, for tests that count them. */
  calls: { method: string; path: string }[];
  down: boolean;
  hang: boolean;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startDiscordStandIn(opts: { appUrl?: string } = {}): Promise<DiscordStandIn> {
  const clientId = '112233445566778899';
  const clientSecret = `secret-${randomBytes(12).toString('hex')}`;
  const guildId = '998877665544332211';
  const redirect = opts.appUrl ? `${opts.appUrl}/auth/discord/callback` : null;
  const codes = new Map<string, { user: DiscordUser; scope: string; redirectUri: string }>();
  const tokens = new Map<string, { user: DiscordUser; scope: string }>();
  const members = new Set<string>();
  const held: ServerResponse[] = [];

  const bearer = (req: IncomingMessage) => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    return m ? tokens.get(m[1]!) : undefined;
  };

  const server = createServer(async (req, res) => {
    const text = await readText(req);
    if (standIn.hang) return void held.push(res);
    if (standIn.down) return send(res, 502, { message: 'Bad Gateway', code: 0 });
    const url = new URL(req.url ?? '/', 'http://stand-in');
    standIn.calls.push({ method: req.method ?? '', path: url.pathname });

    if (url.pathname === '/oauth2/token') {
      if (req.method !== 'POST') return send(res, 405, { message: '405: Method Not Allowed', code: 0 });
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
        return send(res, 400, { error: 'invalid_request', error_description: 'Unsupported content type' });
      const form = new URLSearchParams(text);
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64').toString('utf8').split(':')
        : [form.get('client_id'), form.get('client_secret')];
      if (id !== clientId || secret !== clientSecret) return send(res, 401, { error: 'invalid_client' });
      if (form.get('grant_type') !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type' });
      const code = form.get('code') ?? '';
      const granted = codes.get(code);
      codes.delete(code);
      if (!granted || granted.redirectUri !== form.get('redirect_uri'))
        return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
      const accessToken = randomBytes(20).toString('base64url');
      tokens.set(accessToken, { user: granted.user, scope: granted.scope });
      return send(res, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 604800,
        refresh_token: randomBytes(20).toString('base64url'),
        scope: granted.scope,
      });
    }

    if (req.method !== 'GET') return send(res, 405, { message: '405: Method Not Allowed', code: 0 });
    const auth = bearer(req);
    if (!auth) return send(res, 401, { message: '401: Unauthorized', code: 0 });
    if (url.pathname === '/users/@me') {
      const { id, username, global_name = null } = auth.user;
      return send(res, 200, { id, username, global_name, discriminator: '0', avatar: null });
    }
    const member = /^\/users\/@me\/guilds\/(\d+)\/member$/.exec(url.pathname);
    if (member) {
      if (!auth.scope.split(' ').includes('guilds.members.read'))
        return send(res, 403, { message: 'Missing Access', code: 50001 });
      if (member[1] !== guildId || !members.has(auth.user.id))
        return send(res, 404, { message: 'Unknown Guild', code: 10004 });
      return send(res, 200, {
        user: { id: auth.user.id, username: auth.user.username },
        nick: null,
        roles: [],
        joined_at: new Date().toISOString(),
        deaf: false,
        mute: false,
        flags: 0,
      });
    }
    return send(res, 404, { message: '404: Not Found', code: 0 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const apiBase = `http://127.0.0.1:${port}`;

  const standIn: DiscordStandIn = {
    apiBase,
    clientId,
    clientSecret,
    guildId,
    env: {
      DISCORD_CLIENT_ID: clientId,
      DISCORD_CLIENT_SECRET: clientSecret,
      DISCORD_GUILD_ID: guildId,
      DISCORD_API_BASE: apiBase,
    },
    authorize(user, o = {}) {
      const code = randomBytes(15).toString('base64url');
      const redirectUri = o.redirectUri ?? redirect;
      if (!redirectUri) throw new Error('authorize: no redirect URI (start the stand-in with appUrl or pass one)');
      codes.set(code, { user, scope: o.scope ?? 'identify guilds.members.read', redirectUri });
      return code;
    },
    setMember(userId, member) {
      if (member) members.add(userId);
      else members.delete(userId);
    },
    revoke(userId) {
      for (const [token, t] of tokens) if (t.user.id === userId) tokens.delete(token);
    },
    calls: [],
    down: false,
    hang: false,
    async close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}
