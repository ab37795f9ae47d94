// The query parameters of spec §2 that e-mail links and referral links carry. Parsing is pure
// (unit-tested); running the action is in components/query-params-handler.tsx.
export type QueryAction =
  | { kind: 'newPassword'; token: string | null }
  | { kind: 'confirmRegistration'; token: string }
  | { kind: 'confirmEmailChange'; token: string; email: string }
  | { kind: 'confirmEmail'; token: string }
  | { kind: 'updatePassword'; token: string }
  | { kind: 'undoEmailChange'; token: string };

export interface ParsedQuery {
  action: QueryAction | null;
  refCode: string | null;
  /** Parameters to remove from the address bar once handled (single-use tokens). */
  consumed: string[];
}

export function parseQuery(search: string): ParsedQuery {
  const q = new URLSearchParams(search);
  const modal = q.get('modal');
  const token = q.get('token') || null;
  const email = q.get('email') || null;
  const refCode = q.get('refCode') || null;
  let action: QueryAction | null = null;
  switch (modal) {
    case 'restorePassword':
      action = { kind: 'newPassword', token };
      break;
    case 'confirmRegistration':
      if (token) action = { kind: 'confirmRegistration', token };
      break;
    case 'confirmEmailChange':
      if (token && email) action = { kind: 'confirmEmailChange', token, email };
      break;
    case 'confirmEmail':
      if (token) action = { kind: 'confirmEmail', token };
      break;
    case 'confirmPasswordChange':
      if (token) action = { kind: 'updatePassword', token };
      break;
    case 'undoEmailChange':
      if (token) action = { kind: 'undoEmailChange', token };
      break;
  }
  const consumed = [...(modal ? ['modal', 'token', 'email'] : []), ...(refCode ? ['refCode'] : [])];
  return { action, refCode, consumed };
}
