// The texts of a failed payment step (decisions §8): the wallet's own refusals (none found, the
// prompt declined, another account selected, an unknown chain) in the player's language, then the
// server's refusal (a known code translated, else its `detail`), else the catalogue's default.
import type { TFunction } from 'i18next';
import { FetchError } from 'ofetch';
import { isUserRejection } from '@/lib/wallet';
import { WalletTransferError } from '@/lib/wallet-transfer';
import { NoWalletError } from '../state/payment-actions';
import { miningFailure, type MiningCall } from './mining-errors';

export function paymentFailureText(err: unknown, t: TFunction, call: MiningCall = 'topUp'): string {
  if (err instanceof NoWalletError) return t('mining:topUp.wallet.noWallet');
  if (err instanceof WalletTransferError) return t(`mining:topUp.wallet.${err.problem}`, err.info);
  if (!(err instanceof FetchError)) {
    if (isUserRejection(err)) return t('mining:topUp.wallet.rejected');
    // An EIP-1193 error ({code, message}): the wallet or its node refused (e.g. not enough gas).
    const e = err as { code?: unknown; message?: unknown } | null;
    if (typeof e?.code === 'number' && typeof e.message === 'string')
      return t('mining:topUp.wallet.failed', { reason: e.message });
  }
  return miningFailure(err, call, t).text;
}
