// What the profile shows and offers for a user record (spec §2, §3): pure, so it is unit-tested.
import type { Me } from '@shared/api/auth';
import { shortWallet } from '@shared/validation';
import { formatPxt } from '@/lib/format-pxt';

export interface ProfileView {
  username: string | null;
  email: string | null;
  /** The short form of spec §2, or null for 'wallet not linked'. */
  wallet: string | null;
  coins: number;
  pxt: string;
  gems: number;
  /** Account actions on offer. */
  canChangeEmail: boolean;
  canChangePassword: boolean;
  canAddEmailPassword: boolean;
  canLinkWallet: boolean;
  /** An e-mail account without a password (its registration link was opened elsewhere, decisions §13). */
  needsPassword: boolean;
}

export function profileView(user: Me, locale: string): ProfileView {
  const email = user.email.trim() || null;
  return {
    // A wallet sign-up has its address as username until the player picks one.
    username: user.username && user.username !== user.wallet_address ? user.username : null,
    email,
    wallet: user.wallet_address ? shortWallet(user.wallet_address) : null,
    coins: user.balance,
    pxt: formatPxt(user.token, locale),
    gems: user.gems,
    canChangeEmail: email !== null,
    canChangePassword: user.password_set,
    canAddEmailPassword: !user.password_set && email === null,
    canLinkWallet: !user.wallet_address,
    needsPassword: !user.password_set && email !== null,
  };
}
