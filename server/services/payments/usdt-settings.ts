// USDT payment settings (decisions §8), read once at start; a wrong value stops the start with a
// clear message instead of a payment check failing later:
//   USDT_RPC_URL        JSON-RPC endpoint (http/https) of the chain's node
//   USDT_CHAIN_ID       the chain's id (1 Ethereum, 56 BNB Chain, …); the node must answer it
//   USDT_CONTRACT       the token's contract address (an ERC-20 with 6 decimals)
//   USDT_TREASURY       the address that receives the payments
//   USDT_CONFIRMATIONS  blocks a payment needs, its own included   default 3
// None of the first four set: tether is off (null). Some set: refused, since half a configuration
// is a mistake.
import { type Address, getAddress, isAddress, zeroAddress } from 'viem';

export interface UsdtSettings {
  rpcUrl: string;
  chainId: number;
  contract: Address;
  treasury: Address;
  confirmations: number;
}

export const USDT_CONFIRMATIONS_DEFAULT = 3;

type Env = Record<string, string | undefined>;

const REQUIRED = ['USDT_RPC_URL', 'USDT_CHAIN_ID', 'USDT_CONTRACT', 'USDT_TREASURY'] as const;

function address(env: Env, name: string): Address {
  const raw = env[name]!.trim();
  // Mixed case must carry a valid checksum (a typo in a checksummed address is caught); all lower case is taken as is.
  if (!isAddress(raw, { strict: raw !== raw.toLowerCase() }))
    throw new Error(`${name} must be an EVM address (0x and 40 hex digits, checksummed when mixed case), got "${raw}"`);
  if (getAddress(raw) === zeroAddress) throw new Error(`${name} must not be the zero address`);
  return getAddress(raw);
}

export function loadUsdtSettings(env: Env): UsdtSettings | null {
  const given = REQUIRED.filter((name) => (env[name] ?? '').trim() !== '');
  if (given.length === 0) return null;
  const missing = REQUIRED.filter((name) => !given.includes(name));
  if (missing.length) throw new Error(`USDT payments need ${missing.join(', ')} too (or none of the USDT_* settings)`);

  const rpcUrl = env.USDT_RPC_URL!.trim();
  let url: URL;
  try {
    url = new URL(rpcUrl);
  } catch {
    throw new Error(`USDT_RPC_URL must be an http(s) URL, got "${rpcUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`USDT_RPC_URL must be an http(s) URL, got "${rpcUrl}"`);
  const chainId = Number(env.USDT_CHAIN_ID);
  if (!Number.isSafeInteger(chainId) || chainId < 1)
    throw new Error(`USDT_CHAIN_ID must be a positive integer, got "${env.USDT_CHAIN_ID}"`);
  const rawConfirmations = (env.USDT_CONFIRMATIONS ?? '').trim();
  const confirmations = rawConfirmations === '' ? USDT_CONFIRMATIONS_DEFAULT : Number(rawConfirmations);
  if (!Number.isInteger(confirmations) || confirmations < 1 || confirmations > 1000) {
    throw new Error(`USDT_CONFIRMATIONS must be an integer from 1 to 1000, got "${rawConfirmations}"`);
  }
  const contract = address(env, 'USDT_CONTRACT');
  const treasury = address(env, 'USDT_TREASURY');
  if (contract === treasury) throw new Error('USDT_TREASURY must not be the token contract itself');
  return { rpcUrl, chainId, contract, treasury, confirmations };
}
