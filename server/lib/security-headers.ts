// The security headers of every answer (plugins/security.ts sets them; the bench's limit routes send
// the same, so they answer what the app answers): helmet's, with the Content Security Policy of
// shared/content-security-policy.ts.
import helmet from 'helmet';
import { cspHeaderValue } from '@shared/content-security-policy';

/** The headers a helmet middleware sets, read by running it once on a stand-in response. */
function staticHeaders(middleware: ReturnType<typeof helmet>): [string, string][] {
  const set: [string, string][] = [];
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, String(value)]),
    removeHeader: () => {},
  };
  let finished = false;
  middleware({} as never, res as never, () => void (finished = true));
  if (!finished) throw new Error('helmet did not finish synchronously: its headers cannot be set as a list');
  return set;
}

/**
 * Name → value, in lower case as Fastify keeps them (its reply.header lowercases every name it is
 * given; a name already in lower case costs no new string per answer). `scriptHashes`: the build's
 * inline scripts the CSP allows; `telegram`: Telegram's web clients may frame the app.
 */
export function securityHeaders(opts: { scriptHashes: readonly string[]; telegram: boolean }): Record<string, string> {
  // helmet's headers do not depend on the request (no CSP nonce: the policy is built here), so they
  // are read from it once and set as a list: its middleware chain cost more than the headers.
  const headers = staticHeaders(
    helmet({
      contentSecurityPolicy: false,
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      // Telegram's web clients frame the Mini App; the CSP's frame-ancestors says where instead
      // (browsers that know it ignore X-Frame-Options, which cannot name another origin).
      ...(opts.telegram ? { xFrameOptions: false } : {}),
    }),
  );
  headers.unshift(['Content-Security-Policy', cspHeaderValue(opts.scriptHashes, { telegram: opts.telegram })]);
  // Nothing in this stack sets X-Powered-By. A route may still replace one (the blog covers' stricter CSP).
  return Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value]));
}
