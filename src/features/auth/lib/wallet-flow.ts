// The wallet sign-in / binding of spec §4: sign the exact text of shared/wallet-texts.ts with a
// millisecond timestamp, then link (signed in, with proof of the account) or log in (visitor).
import { walletBindText, walletLoginText } from '@shared/wallet-texts';
import { loadAppConfig } from '@/lib/app-config';
import { refreshCurrentUser } from '@/lib/current-user';
import { withReauth } from '@/lib/reauth';
import { isSignedIn, setTokens } from '@/lib/session';
import { bindWallet, loginWithWallet } from '../api/auth-api';
import { signText, type Eip1193Provider } from '@/lib/wallet';

/** linked: wallet added to the account; loggedIn: done; needsUsername: first-time account details. */
export type WalletOutcome = 'linked' | 'loggedIn' | 'needsUsername';

export const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  Boolean(a && b && a.toLowerCase() === b.toLowerCase());

export async function walletSignIn(provider: Eip1193Provider): Promise<WalletOutcome> {
  const linking = isSignedIn();
  const appName = linking ? '' : (await loadAppConfig()).app_name;
  const timestamp = Date.now();
  const text = linking ? walletBindText(timestamp) : walletLoginText(appName, timestamp);
  const { address, signature } = await signText(provider, text);
  if (linking) {
    // Linking needs proof of the account (decisions §13): the reauth prompt asks when the server does.
    const r = await withReauth((proof) => bindWallet({ address, signature, timestamp }, proof));
    // Spec §4: the binding result is only logged.
    console.info(r.detail);
    await refreshCurrentUser();
    return 'linked';
  }
  const tokens = await loginWithWallet({ address, signature, timestamp });
  setTokens(tokens);
  const me = await refreshCurrentUser();
  return me && sameAddress(me.username, me.wallet_address) ? 'needsUsername' : 'loggedIn';
}
