// A player's sign-in methods (decisions §13) as the account row holds them: the e-mail with its
// password, the wallet, Google, Telegram and Discord. Removing one clears its columns; the last
// method that signs in is never removed (Discord, for quests only, does not count).
import type { MethodKind } from '@shared/api/auth';
import { methodRemovable } from '@shared/sign-in-methods';
import type { User } from './users';

export interface Method {
  kind: MethodKind;
  label: string;
  addedAt: number | null;
}

const shortWallet = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

export function methodsOf(user: User): Method[] {
  const out: Method[] = [];
  if (user.password_hash && user.email && user.email_confirmed)
    out.push({ kind: 'password', label: user.email, addedAt: num(user.password_added_at) });
  if (user.wallet_address)
    out.push({ kind: 'wallet', label: shortWallet(user.wallet_address), addedAt: num(user.wallet_added_at) });
  if (user.google_sub) out.push({ kind: 'google', label: user.email ?? 'Google', addedAt: num(user.google_added_at) });
  if (user.telegram_id)
    out.push({ kind: 'telegram', label: user.telegram_name ?? 'Telegram', addedAt: num(user.telegram_added_at) });
  if (user.discord_id)
    out.push({ kind: 'discord', label: user.discord_name ?? 'Discord', addedAt: num(user.discord_added_at) });
  return out;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The columns that remove `kind` from the account. The e-mail goes with its password: it signs in through resets too. */
export function removalColumns(kind: MethodKind) {
  switch (kind) {
    case 'password':
      return { email: null, email_confirmed: 0, password_hash: null, password_added_at: null };
    case 'wallet':
      return { wallet_address: null, wallet_added_at: null };
    case 'google':
      return { google_sub: null, google_added_at: null };
    // telegram_reminders stays: the player's switch, which sends nothing without a link and holds
    // their choice for a later one.
    case 'telegram':
      return { telegram_id: null, telegram_name: null, telegram_added_at: null };
    case 'discord':
      return {
        discord_id: null,
        discord_name: null,
        discord_added_at: null,
        discord_token: null,
        discord_token_expires_at: null,
      };
  }
}

/** Whether the account would still have a method that signs in without `kind`. */
export const keepsAMethod = (user: User, kind: MethodKind) =>
  methodRemovable(
    methodsOf(user).map((m) => m.kind),
    kind,
  );
