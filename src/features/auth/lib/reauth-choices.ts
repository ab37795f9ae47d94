// Which proofs the reauth prompt offers (decisions §13), from the account's sign-in methods:
// pure, so it is unit-tested. Telegram is offered inside the Mini App (its launch's init data);
// Discord is never a proof.
import type { MethodKind } from '@shared/api/auth';

export interface ReauthChoices {
  password: boolean;
  wallet: boolean;
  google: boolean;
  telegram: boolean;
}

export function reauthChoices(
  kinds: readonly MethodKind[],
  googleConfigured: boolean,
  inTelegram = false,
): ReauthChoices {
  return {
    password: kinds.includes('password'),
    wallet: kinds.includes('wallet'),
    google: googleConfigured && kinds.includes('google'),
    telegram: inTelegram && kinds.includes('telegram'),
  };
}
