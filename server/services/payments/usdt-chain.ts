// Checks a claimed USDT payment on the chain itself (decisions §8), never on what the client says:
// the transaction's receipt must have succeeded and hold `Transfer` logs emitted BY the configured
// token contract, from the player's linked wallet to the treasury, for at least the order's amount
// (several matching logs in one transaction add up), and be buried under enough blocks.
//
// Anything that cannot be paid is `failed` with the reason, so the caller can free the hash for
// the order it really pays; `pending` is only for a transaction that can still become this payment.
import {
  type Address,
  createPublicClient,
  defineChain,
  erc20Abi,
  type Hash,
  http,
  isAddressEqual,
  parseEventLogs,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { UsdtSettings } from './usdt-settings';

export interface UsdtClaim {
  txHash: Hash;
  contract: Address;
  treasury: Address;
  /** The player's linked wallet: the payment must come from it. */
  from: Address;
  /** In the token's smallest unit (6 decimals: 4.99 USDT = 4_990_000n). */
  minAmount: bigint;
  /** Blocks required, the transaction's own included (1 = mined). */
  confirmations: number;
}

export type UsdtFailure =
  /** The receipt's status is reverted: its logs never happened. */
  | 'reverted'
  /** No Transfer log of the configured contract: another token, or no token moved at all. */
  | 'wrong_token'
  /** The token moved, but not to the treasury. */
  | 'wrong_recipient'
  /** To the treasury, but not from the player's wallet (or, not mined yet, sent by another address). */
  | 'wrong_sender'
  /** From the wallet to the treasury, but less than the order's amount. */
  | 'amount_too_low';

export type UsdtVerdict =
  | { status: 'paid'; reason: 'confirmed'; confirmations: number; amount: bigint }
  | { status: 'pending'; reason: 'not_found' | 'not_mined' | 'confirmations'; confirmations: number }
  | { status: 'failed'; reason: UsdtFailure };

/** The node could not be asked (down, timing out, another chain): nothing was decided, try again later. */
export class UsdtChainUnavailable extends Error {}

/** A client for the configured node; short timeouts and no retries, since a route waits on it (the client posts again). */
export function usdtClient(settings: Pick<UsdtSettings, 'rpcUrl' | 'chainId'>): PublicClient {
  const chain = defineChain({
    id: settings.chainId,
    name: `chain ${settings.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } },
  });
  return createPublicClient({
    chain,
    transport: http(settings.rpcUrl, { timeout: 5_000, retryCount: 0 }),
  }) as PublicClient;
}

const checkedChains = new WeakMap<PublicClient, number>();

/** The node must serve the configured chain: a payment on a test network must not pay on the main one. */
async function assertChain(client: PublicClient, chainId: number): Promise<void> {
  if (checkedChains.get(client) === chainId) return;
  const actual = await client.getChainId();
  if (actual !== chainId)
    throw new UsdtChainUnavailable(`USDT_RPC_URL serves chain ${actual}, not USDT_CHAIN_ID ${chainId}`);
  checkedChains.set(client, chainId);
}

async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (
      err instanceof UsdtChainUnavailable ||
      err instanceof TransactionReceiptNotFoundError ||
      err instanceof TransactionNotFoundError
    )
      throw err;
    throw new UsdtChainUnavailable(`${what}: ${(err as Error).message.split('\n')[0]}`);
  }
}

async function receiptOf(client: PublicClient, hash: Hash) {
  try {
    return await ask('eth_getTransactionReceipt', () => client.getTransactionReceipt({ hash }));
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  }
}

async function transactionOf(client: PublicClient, hash: Hash) {
  try {
    return await ask('eth_getTransactionByHash', () => client.getTransaction({ hash }));
  } catch (err) {
    if (err instanceof TransactionNotFoundError) return null;
    throw err;
  }
}

export async function verifyUsdtPayment(client: PublicClient, chainId: number, claim: UsdtClaim): Promise<UsdtVerdict> {
  // The treasury paying itself moves no money: an account linked to the treasury's own wallet gets nothing.
  if (isAddressEqual(claim.from, claim.treasury)) return { status: 'failed', reason: 'wrong_sender' };
  await ask('eth_chainId', () => assertChain(client, chainId));
  const receipt = await receiptOf(client, claim.txHash);
  if (!receipt) {
    // Not mined (or not seen by this node yet). Who signed it is known already: a hash someone else
    // sent is refused now, so nobody can park another player's payment on an order of their own.
    const tx = await transactionOf(client, claim.txHash);
    if (!tx) return { status: 'pending', reason: 'not_found', confirmations: 0 };
    if (!isAddressEqual(tx.from, claim.from)) return { status: 'failed', reason: 'wrong_sender' };
    return { status: 'pending', reason: 'not_mined', confirmations: 0 };
  }
  if (receipt.status !== 'success') return { status: 'failed', reason: 'reverted' };

  // strict: a log that does not decode as a standard Transfer (other topics, short data) is skipped.
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs, strict: true }).filter(
    (log) => isAddressEqual(log.address, claim.contract),
  );
  if (transfers.length === 0) return { status: 'failed', reason: 'wrong_token' };
  const toTreasury = transfers.filter((log) => isAddressEqual(log.args.to, claim.treasury));
  if (toTreasury.length === 0) return { status: 'failed', reason: 'wrong_recipient' };
  const fromPlayer = toTreasury.filter((log) => isAddressEqual(log.args.from, claim.from));
  if (fromPlayer.length === 0) return { status: 'failed', reason: 'wrong_sender' };
  const amount = fromPlayer.reduce((sum, log) => sum + log.args.value, 0n);
  if (amount < claim.minAmount) return { status: 'failed', reason: 'amount_too_low' };

  // cacheTime 0: viem otherwise answers a block number up to its polling interval old.
  const latest = await ask('eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
  const confirmations = latest >= receipt.blockNumber ? Number(latest - receipt.blockNumber + 1n) : 0;
  if (confirmations < claim.confirmations) return { status: 'pending', reason: 'confirmations', confirmations };
  return { status: 'paid', reason: 'confirmed', confirmations, amount };
}
