// The USDT payment's wallet side (decisions §8, tether): the connected wallet is put on the
// configured chain (wallet_switchEthereumChain, adding well-known chains it lacks) and asked for the
// ERC-20 `transfer(to, amount)` with eth_sendTransaction. The calldata is encoded here by hand
// (selector + two 32-byte words) so no EVM library reaches the browser bundle.
import type { Eip1193Provider } from './wallet';

/** keccak256("transfer(address,uint256)")[0..4]. */
const TRANSFER_SELECTOR = 'a9059cbb';

export type WalletTransferProblem = 'no_account' | 'wrong_account' | 'unknown_chain';

/** A refusal of ours before anything was sent (the player can fix it in the wallet and retry). */
export class WalletTransferError extends Error {
  constructor(
    readonly problem: WalletTransferProblem,
    readonly info: Record<string, string> = {},
  ) {
    super(`wallet transfer refused: ${problem}`);
  }
}

const word = (hex: string) => hex.padStart(64, '0');

/** Calldata of `transfer(to, amount)`; `amount` in the token's smallest unit (a decimal string). */
export function erc20TransferData(to: string, amount: string | bigint): `0x${string}` {
  if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw new Error(`not an address: ${to}`);
  const value = BigInt(amount);
  if (value <= 0n || value >= 2n ** 256n) throw new Error(`not a token amount: ${amount}`);
  return `0x${TRANSFER_SELECTOR}${word(to.slice(2).toLowerCase())}${word(value.toString(16))}`;
}

export const toHexChainId = (chainId: number) => `0x${chainId.toString(16)}`;

/**
 * Public endpoints of chains USDT lives on, for wallets that do not know them yet (EIP-3085).
 * Ethereum itself is in every wallet. Another chain the wallet lacks is a clear refusal.
 */
const KNOWN_CHAINS: Record<
  number,
  {
    chainName: string;
    rpcUrls: string[];
    nativeCurrency: { name: string; symbol: string; decimals: number };
    blockExplorerUrls: string[];
  }
> = {
  56: {
    chainName: 'BNB Smart Chain',
    rpcUrls: ['https://bsc-dataseed.bnbchain.org'],
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    blockExplorerUrls: ['https://bscscan.com'],
  },
  137: {
    chainName: 'Polygon',
    rpcUrls: ['https://polygon-rpc.com'],
    nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
    blockExplorerUrls: ['https://polygonscan.com'],
  },
  42161: {
    chainName: 'Arbitrum One',
    rpcUrls: ['https://arb1.arbitrum.io/rpc'],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    blockExplorerUrls: ['https://arbiscan.io'],
  },
  10: {
    chainName: 'OP Mainnet',
    rpcUrls: ['https://mainnet.optimism.io'],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    blockExplorerUrls: ['https://optimistic.etherscan.io'],
  },
  43114: {
    chainName: 'Avalanche C-Chain',
    rpcUrls: ['https://api.avax.network/ext/bc/C/rpc'],
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    blockExplorerUrls: ['https://snowtrace.io'],
  },
};

/** EIP-3326's "unrecognised chain" (4902); some wallets wrap it in data.originalError. */
function isUnknownChain(err: unknown): boolean {
  const e = err as { code?: unknown; data?: { originalError?: { code?: unknown } } } | null;
  return e?.code === 4902 || e?.data?.originalError?.code === 4902;
}

/** Puts the wallet on `chainId` unless it is there already. */
export async function switchToChain(provider: Eip1193Provider, chainId: number): Promise<void> {
  const current = (await provider.request({ method: 'eth_chainId' })) as string;
  if (current && Number(BigInt(current)) === chainId) return;
  const hex = toHexChainId(chainId);
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex }] });
  } catch (err) {
    if (!isUnknownChain(err)) throw err;
    const known = KNOWN_CHAINS[chainId];
    if (!known) throw new WalletTransferError('unknown_chain', { chainId: String(chainId) });
    await provider.request({ method: 'wallet_addEthereumChain', params: [{ chainId: hex, ...known }] });
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: hex }] });
  }
}

export interface TransferRequest {
  chain_id: number;
  contract: string;
  to: string;
  amount: string;
}

/**
 * Asks the wallet for the transfer from `from` (the player's linked wallet: the server pays an order
 * only from it, so another selected account is refused here before any token moves) and returns
 * the transaction hash.
 */
export async function sendErc20Transfer(
  provider: Eip1193Provider,
  payTo: TransferRequest,
  from: string,
): Promise<`0x${string}`> {
  const accounts = ((await provider.request({ method: 'eth_requestAccounts' })) as string[] | undefined) ?? [];
  if (accounts.length === 0) throw new WalletTransferError('no_account');
  const account = accounts.find((a) => a.toLowerCase() === from.toLowerCase());
  if (!account) throw new WalletTransferError('wrong_account', { account: accounts[0], linked: from });
  await switchToChain(provider, payTo.chain_id);
  const hash = (await provider.request({
    method: 'eth_sendTransaction',
    params: [{ from: account, to: payTo.contract, data: erc20TransferData(payTo.to, payTo.amount), value: '0x0' }],
  })) as `0x${string}`;
  return hash;
}
