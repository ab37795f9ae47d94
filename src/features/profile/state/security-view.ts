// Which sign-in methods the Security section offers to add (decisions §13): pure, unit-tested.
import type { MethodKind } from '@shared/api/auth';

export interface AddableMethods {
  wallet: boolean;
  emailPassword: boolean;
  google: boolean;
}

/**
 * A wallet when none is linked; an e-mail and password when the account has neither (an e-mail
 * account without a password sets one through the password link instead); Google where the
 * server is configured for it and none is linked.
 */
export function addableMethods(
  kinds: readonly MethodKind[],
  opts: { googleConfigured: boolean; hasEmail: boolean },
): AddableMethods {
  return {
    wallet: !kinds.includes('wallet'),
    emailPassword: !kinds.includes('password') && !opts.hasEmail,
    google: opts.googleConfigured && !kinds.includes('google'),
  };
}
