// What request logs may not hold: the single-use tokens of mailed links. They travel in URL paths
// (/api/v1/auth/confirm-email/<token>/) and in the app links' query (/?modal=…&token=…), so a log
// reader could confirm an account or set a password with them.
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/** Query parameters that carry a secret, in any route or page link. */
const SECRET_PARAMS = new Set(['token', 'refresh', 'access', 'code', 'password', 'signature']);
/** Every auth route with a path parameter has a token there (confirm-email, confirm-email-change). */
const AUTH_PATH_SECRET = /(\/auth\/[^/?#]+\/)[^/?#]+/;

/** A query of names and values written as they are (nothing escaped, no spaces)… */
const PLAIN_QUERY = /^[\w.~=&-]*$/;
/** …none of whose names is a secret's. */
const SECRET_NAME = new RegExp(`(?:^|&)(?:${[...SECRET_PARAMS].join('|')})=`, 'i');

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  // Most URLs have nothing to redact (the hot reads' among them): said at once, no string made (issue 25).
  const auth = url.indexOf('/auth/');
  if (auth < 0 || (q >= 0 && auth > q)) {
    if (q < 0) return url;
    const query = url.slice(q + 1);
    if (PLAIN_QUERY.test(query) && !SECRET_NAME.test(query)) return url;
  }
  const path = (q < 0 ? url : url.slice(0, q)).replace(AUTH_PATH_SECRET, `$1${REDACTED}`);
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      let name = eq < 0 ? pair : pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* a malformed name is kept as sent */
      }
      return eq >= 0 && SECRET_PARAMS.has(name.trim().toLowerCase()) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's default request serializer, with the URL redacted. */
export function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers?.['accept-version']?.toString(),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
