// Turns any failed call into what the UI shows (spec §8): the server's `detail`, else its
// `message`, else the default text the caller passes (already translated). A refusal whose `code`
// has a text of our own (`errors:codes.*`) is shown in the player's language instead of the
// server's English (issue 24), and so are the spec §5 field messages (`errors:fields.*`); the
// server's words remain for codes we do not know. Keeps the field errors of decisions §4 and says
// whether the fault is the server's (the auth flows then open the error modal, spec §4 "an auth
// error containing '500'").
import type { i18n as I18n } from 'i18next';
import { FetchError } from 'ofetch';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '@shared/constants';
import { i18n } from './i18n';

export interface FieldError {
  field: string;
  message: string;
}

export interface ApiFailure {
  /** HTTP status, or 0 when no answer came (offline, DNS, CORS). */
  status: number;
  /** Machine code of decisions §4 (`token_not_valid`, `throttled`, …) when the server sent one. */
  code: string | null;
  /** The text to show. */
  message: string;
  /**
   * Our own text for `code` (`errors:codes.*`, in the player's language), null for a code we have
   * no text for: a caller with codes of its own (the mining screens) asks those first, then this.
   */
  codeText: string | null;
  /** True when the server itself sent the message (detail/message) rather than our fallback. */
  fromServer: boolean;
  fields: FieldError[];
  /** A 5xx other than 503 `busy`: the error modal case. */
  serverFault: boolean;
  /** The body as received (some flows read extra fields, e.g. `reward`). */
  body: Record<string, unknown> | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function fieldErrors(body: Record<string, unknown> | null): FieldError[] {
  const list = body?.errors;
  if (!Array.isArray(list)) return [];
  return list.flatMap((e) =>
    isRecord(e) && typeof e.field === 'string' && typeof e.message === 'string'
      ? [{ field: e.field, message: e.message }]
      : [],
  );
}

/**
 * The server's field messages (shared/api/auth.ts, spec §5) and their keys in `errors:fields`. The
 * schemas hold zod, which must stay out of the bundle, so the texts are repeated here;
 * tests/unit/api-errors.test.ts checks them against the schemas' constants.
 */
export const FIELD_MESSAGE_KEYS: Readonly<Record<string, string>> = {
  'Enter a valid email': 'emailInvalid',
  [`Use ${PASSWORD_MIN} or more characters mixing letters and numbers`]: 'passwordInvalid',
  'Passwords do not match': 'passwordsDiffer',
  'Enter your password': 'passwordRequired',
  [`Username must be at least ${USERNAME_MIN} characters`]: 'usernameShort',
  [`Username must be at most ${USERNAME_MAX} characters`]: 'usernameLong',
  'Username contains invisible or look-alike characters': 'usernameCharacters',
  'Invalid wallet address': 'walletInvalid',
};

/** Seconds to wait from `Retry-After`, else from the English detail ("… in 42 seconds."). */
function retrySeconds(err: unknown, detail: string | null): number | null {
  const header = (err as FetchError | null)?.response?.headers?.get?.('retry-after');
  const n = Number(header ?? /(\d+) seconds?/.exec(detail ?? '')?.[1]);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * Our own text for a server code, in the player's language; null for a code we have no text for.
 * The one translation of the app's codes: a component translating a stored code at render time
 * passes its own i18next instance (the one its `useTranslation` reads).
 */
export function codeText(
  code: string | null | undefined,
  seconds: number | null = null,
  i18next: Pick<I18n, 'exists' | 't'> = i18n,
): string | null {
  const key = `errors:codes.${code}`;
  if (!code || !i18next.exists(key)) return null;
  return i18next.t(key, { seconds: seconds ?? '…' });
}

/** Our own text for one of the spec's field messages; null for any other. */
function fieldText(message: string | null): string | null {
  const key = message ? FIELD_MESSAGE_KEYS[message] : undefined;
  if (!key || !i18n.exists(`errors:fields.${key}`)) return null;
  return i18n.t(`errors:fields.${key}`, { min: USERNAME_MIN, max: USERNAME_MAX });
}

/** What the error says about the call (status, body); anything not from ofetch counts as a network failure. */
export function toApiFailure(err: unknown, fallback: string): ApiFailure {
  let status = 0;
  let body: Record<string, unknown> | null = null;
  let rawMessage: string | null = null;
  if (err instanceof FetchError || (isRecord(err) && 'response' in err)) {
    const fe = err as FetchError;
    status = fe.status ?? fe.response?.status ?? 0;
    const data: unknown = fe.data;
    if (isRecord(data)) body = data;
    else rawMessage = text(data);
  } else if (err instanceof Error) {
    rawMessage = text(err.message);
  } else if (isRecord(err)) {
    // A body passed on by hand (or a wallet's {code, message}) (e.g. a parsed answer that lacks tokens).
    if ('detail' in err || 'message' in err || 'errors' in err) body = err;
  } else {
    rawMessage = text(err);
  }
  const detail = text(body?.detail) ?? text(body?.message) ?? rawMessage;
  const code = text(body?.code);
  const own = codeText(code, retrySeconds(err, detail));
  // A field error of a coded refusal (`invalidField`) repeats its detail: it takes the code's text.
  const fields = fieldErrors(body).map((e) => ({
    field: e.field,
    message: (e.message === detail ? own : null) ?? fieldText(e.message) ?? e.message,
  }));
  return {
    status,
    code,
    message: own ?? fieldText(detail) ?? detail ?? fallback,
    codeText: own,
    fromServer: detail !== null,
    fields,
    // 503 `busy` (the server's password-hashing queue is full) is a "try again", not a fault.
    serverFault: status >= 500 && text(body?.code) !== 'busy',
    body,
  };
}

/** The message for one field, if the server named that field. */
export const fieldMessage = (f: ApiFailure, field: string) => f.fields.find((e) => e.field === field)?.message ?? null;

/**
 * Registration errors in the spec's order (§5): the field error of the e-mail, else the first field
 * error, else an email/password/confirm_password/detail/message field of the body, else the fallback.
 */
export function registrationMessage(f: ApiFailure): string {
  const byField = fieldMessage(f, 'email') ?? f.fields[0]?.message;
  if (byField) return byField;
  for (const k of ['email', 'password', 'confirm_password']) {
    const v = f.body?.[k];
    if (typeof v === 'string' && v) return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  // The body's detail, else its message, else the fallback: in our words when we know the code.
  return f.message;
}
