// Google Identity Services, token or code flow (spec §7): the script is loaded only when a sign-in dialog
// that offers Google opens, so the click can open Google's popup at once (a popup opened after
// an await would be blocked).
const SCRIPT_URL = 'https://accounts.google.com/gsi/client';
const SCOPE = 'openid profile email';

interface TokenResponse {
  access_token?: string;
  error?: string;
  error_description?: string;
}
interface TokenClient {
  requestAccessToken(): void;
}
interface CodeResponse {
  code?: string;
  error?: string;
  error_description?: string;
}
interface CodeClient {
  requestCode(): void;
}
type ErrorCallback = (e: { type?: string; message?: string }) => void;
interface GoogleAccounts {
  oauth2: {
    initCodeClient(config: {
      client_id: string;
      scope: string;
      ux_mode: 'popup';
      callback: (r: CodeResponse) => void;
      error_callback?: ErrorCallback;
    }): CodeClient;
    initTokenClient(config: {
      client_id: string;
      scope: string;
      callback: (r: TokenResponse) => void;
      error_callback?: (e: { type?: string; message?: string }) => void;
    }): TokenClient;
  };
}
declare global {
  interface Window {
    google?: { accounts?: GoogleAccounts };
  }
}

/**
 * A refusal from Google itself. `auth`: Google answered with an error (denied consent), `message`
 * being its description when it gave one; `login`: the sign-in never got an answer (the script
 * did not load, the popup was blocked or closed).
 */
export class GoogleAuthError extends Error {
  readonly kind: 'auth' | 'login';
  constructor(kind: 'auth' | 'login', description = '') {
    super(description);
    this.kind = kind;
  }
}

let loading: Promise<GoogleAccounts> | null = null;

export function loadGoogleScript(): Promise<GoogleAccounts> {
  if (window.google?.accounts?.oauth2) return Promise.resolve(window.google.accounts);
  loading ??= new Promise<GoogleAccounts>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () =>
      window.google?.accounts ? resolve(window.google.accounts) : reject(new GoogleAuthError('login'));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new GoogleAuthError('login'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Already loaded: stay inside the click so the popup is allowed; else load the script first. */
function withAccounts<T>(ask: (accounts: GoogleAccounts) => Promise<T>): Promise<T> {
  const ready = window.google?.accounts?.oauth2 ? window.google.accounts : null;
  return ready ? ask(ready) : loadGoogleScript().then(ask);
}

/**
 * The code flow (spec §7), used when the server holds a client secret: Google's popup hands out
 * an authorization code, which only the server can exchange. Resolves with the code.
 */
export function requestGoogleCode(clientId: string): Promise<string> {
  return withAccounts(
    (accounts) =>
      new Promise<string>((resolve, reject) => {
        const client = accounts.oauth2.initCodeClient({
          client_id: clientId,
          scope: SCOPE,
          ux_mode: 'popup',
          callback: (r) => (r.code ? resolve(r.code) : reject(new GoogleAuthError('auth', r.error_description))),
          error_callback: () => reject(new GoogleAuthError('login')),
        });
        client.requestCode();
      }),
  );
}

/** Asks Google for an access token; resolves with it, rejects with GoogleAuthError. */
export function requestGoogleAccessToken(clientId: string): Promise<string> {
  const ask = (accounts: GoogleAccounts) =>
    new Promise<string>((resolve, reject) => {
      const client = accounts.oauth2.initTokenClient({
        client_id: clientId,
        scope: SCOPE,
        callback: (r) =>
          r.access_token ? resolve(r.access_token) : reject(new GoogleAuthError('auth', r.error_description)),
        // popup_failed_to_open, popup_closed: no answer from Google (its `message` is untranslated).
        error_callback: () => reject(new GoogleAuthError('login')),
      });
      client.requestAccessToken();
    });
  return withAccounts(ask);
}
