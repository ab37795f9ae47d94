// A local stand-in for Google's tokeninfo and userinfo endpoints (what /auth/google/ asks about an
// access token): each token a test registers names its profile; any other is refused as Google does.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GoogleStandIn {
  /** GOOGLE_CLIENT_ID and the endpoints' URLs, for the server. */
  env: Record<string, string>;
  /** The profile userinfo answers for each access token; tokeninfo names our client as its audience. */
  profiles: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startGoogleStandIn(clientId: string): Promise<GoogleStandIn> {
  const profiles = new Map<string, Record<string, unknown>>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const token =
      url.pathname === '/tokeninfo'
        ? (url.searchParams.get('access_token') ?? '')
        : (/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    const profile = profiles.get(token);
    if (!profile) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
    const body =
      url.pathname === '/tokeninfo' ? { aud: clientId, azp: clientId, scope: 'openid email profile' } : profile;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_USERINFO_URL: `${base}/userinfo`,
      GOOGLE_TOKENINFO_URL: `${base}/tokeninfo`,
    },
    profiles,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
