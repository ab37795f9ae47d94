// Which proofs the reauth prompt offers (decisions §13), from the account's sign-in methods:
// pure, so it is unit-tested. Telegram's init data exists only inside Telegram, and Discord is
// never a proof, so neither is offered here.
import type { MethodKind } from '@shared/api/auth';

export interface ReauthChoices {
  password: boolean;
  wallet: boolean;
  google: boolean;
}

export function reauthChoices(kinds: readonly MethodKind[], googleConfigured: boolean): ReauthChoices {
  return {
    password: kinds.includes('password'),
    wallet: kinds.includes('wallet'),
    google: googleConfigured && kinds.includes('google'),
  };
}
