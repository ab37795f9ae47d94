// The page's Content Security Policy, the one place it is written. The server sends it with every
// answer (server/plugins/security.ts); the build (scripts/vite-plugin-csp-hashes.ts) writes the
// sha256 of each inline script of the built index.html into CSP_HASHES_FILE next to it, and the
// server adds those hashes to script-src at start. Tokens live in localStorage, so an injected
// script would be token theft: no 'unsafe-inline' for scripts, and fetches only to the hosts the
// sign-in flows need (docs/choices.md "Page and server edge" says how each was found).

/** Written by the build into the output folder: `{ "script-src": ["sha256-…"] }`. */
export const CSP_HASHES_FILE = 'csp-hashes.json';

/** Google Identity Services (token client, loaded when a sign-in dialog offers Google). */
export const GOOGLE_GSI_SCRIPT = 'https://accounts.google.com/gsi/client';
const GOOGLE_GSI = 'https://accounts.google.com/gsi/';

/** Telegram's Login Widget (the web's "Sign in with Telegram", loaded when a dialog offers it) and its iframe. */
export const TELEGRAM_WIDGET_SCRIPT = 'https://telegram.org/js/telegram-widget.js';
const TELEGRAM_OAUTH = 'https://oauth.telegram.org';
/** Telegram's web clients open a Mini App in an iframe: the app may be framed there while Telegram is on. */
export const TELEGRAM_WEB_CLIENT = 'https://web.telegram.org';

/** @metamask/sdk's relay (socket.io over a websocket only) and its connection events (`…/evt`). */
const METAMASK_RELAY_HOST = 'metamask-sdk.api.cx.metamask.io';
/** The SDK's QR dialog fetches its texts from here for es/fr/he/it/pt/tr-only browsers (English otherwise). */
const METAMASK_MODAL_LOCALES = 'https://raw.githubusercontent.com/MetaMask/metamask-sdk/refs/heads/gh-pages/locales/';

/** Exactly the origins fetch, XHR and websockets may reach besides the app's own. */
export const CONNECT_SOURCES: readonly string[] = [
  "'self'",
  GOOGLE_GSI,
  `https://${METAMASK_RELAY_HOST}`,
  `wss://${METAMASK_RELAY_HOST}`,
  METAMASK_MODAL_LOCALES,
];

const HASH = /^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}$/;

/** True for a CSP hash source without its quotes (`sha256-…`). */
export const isScriptHash = (s: unknown): s is string => typeof s === 'string' && HASH.test(s);

/** The directives, with the build's inline-script hashes (`sha256-…`, no quotes) allowed. */
export function cspDirectives(
  inlineScriptHashes: readonly string[] = [],
  opts: { telegram?: boolean } = {},
): Record<string, string[]> {
  const hashes = inlineScriptHashes.map((h) => {
    if (!isScriptHash(h)) throw new Error(`not a CSP hash: ${JSON.stringify(h)}`);
    return `'${h}'`;
  });
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': opts.telegram ? ["'self'", TELEGRAM_WEB_CLIENT] : ["'self'"],
    'script-src': ["'self'", GOOGLE_GSI_SCRIPT, ...(opts.telegram ? [TELEGRAM_WIDGET_SCRIPT] : []), ...hashes],
    'script-src-attr': ["'none'"],
    // 'unsafe-inline' for styles only, for the wallet SDK's QR dialog: a Stencil component that
    // writes <style> elements and sets markup with innerHTML. The app's own pages need none (React
    // sets `style` props through the CSSOM, which CSP does not govern). A style cannot run script,
    // and tokens are never in the page's markup for a selector to read.
    'style-src': ["'self'", "'unsafe-inline'", `${GOOGLE_GSI}style`],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'"],
    'connect-src': [...CONNECT_SOURCES],
    'frame-src': ["'self'", 'https://accounts.google.com', ...(opts.telegram ? [TELEGRAM_OAUTH] : [])],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
  };
}

/** The header value, for places that send the policy as text. */
export function cspHeaderValue(inlineScriptHashes: readonly string[] = [], opts: { telegram?: boolean } = {}): string {
  return Object.entries(cspDirectives(inlineScriptHashes, opts))
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}
