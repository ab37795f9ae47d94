// Proof for account changes (decisions §13). A call that adds or removes a sign-in method or
// changes the e-mail is answered 403 `reauth_required` without proof; `withReauth` then asks the
// player once through the reauth prompt (features/auth, mounted by app/reauth-mount.tsx on top of
// whatever dialog is open), which obtains a single-use string from POST /auth/reauth/, and sends
// the same call again ONCE with `reauth`. Nothing here needs React, so any feature can use it.
import { requestReauth } from './reauth-request';

export interface Proof {
  password?: string;
  reauth?: string;
}

/** The player closed the prompt: the change was not made (callers say nothing more). */
export class ReauthCancelled extends Error {
  constructor() {
    super('reauth cancelled');
    this.name = 'ReauthCancelled';
  }
}

const answerOf = (err: unknown) => {
  const e = err as { status?: number; statusCode?: number; response?: { status?: number }; data?: unknown } | null;
  const status = e?.status ?? e?.statusCode ?? e?.response?.status;
  const code = e?.data && typeof e.data === 'object' ? (e.data as { code?: unknown }).code : undefined;
  return { status, code };
};

/** The server's "prove it is you first" answer. */
export function isReauthRequired(err: unknown): boolean {
  const { status, code } = answerOf(err);
  return status === 403 && code === 'reauth_required';
}

/**
 * Sends `call` with `proof` (the password typed up front, or nothing); when the server wants proof,
 * asks for it through the prompt and sends the call again once with `{ reauth }`. A second refusal
 * is thrown like any other error; a closed prompt throws ReauthCancelled.
 */
export async function withReauth<T>(call: (proof: Proof) => Promise<T>, proof: Proof = {}): Promise<T> {
  try {
    return await call(proof);
  } catch (err) {
    if (!isReauthRequired(err)) throw err;
  }
  const reauth = await requestReauth();
  if (!reauth) throw new ReauthCancelled();
  return call({ reauth });
}
