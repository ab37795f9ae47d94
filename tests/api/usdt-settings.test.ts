// The USDT provider and its settings (decisions §8) on their own: what checkout asks the wallet to
// pay, and the configuration checked at start. No chain is contacted (the attacks against a real
// node are in payments-tether.test.ts).
import { type Address, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { usdtProvider } from '../../server/services/payments/usdt-provider';
import { loadUsdtSettings } from '../../server/services/payments/usdt-settings';
import { USDT, usdtEnv } from '../helpers/anvil';

const PRICE = 4_990_000n; // 4.99 USDT in the token's smallest unit
const CONFIRMATIONS = 3;
const node = { rpcUrl: 'http://127.0.0.1:8545', chainId: 31337 };
const usdt = privateKeyToAccount(generatePrivateKey()).address as Address;
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const usdtSettings = () => usdtEnv(node, usdt, treasury, CONFIRMATIONS);

/** The address with the case of one letter flipped: its checksum no longer holds. */
const badChecksum = (address: string) => {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[i];
  return address.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(i + 1);
};

describe('the USDT provider and settings', () => {
  it('asks for 4_990_000 units per 50 Gems item on the configured chain, contract and treasury', async () => {
    const settings = loadUsdtSettings(usdtSettings())!;
    const provider = usdtProvider(settings);
    expect(provider).toMatchObject({ method: 'tether', name: 'usdt' });
    const order = {
      id: 7,
      userId: 1,
      gems: 150,
      amountCents: 3 * 499,
      currency: 'USD' as const,
      quantity: 3,
      externalId: null,
      walletAddress: '0x1111111111111111111111111111111111111111',
      createdAt: 0,
      charge: null,
      txHash: null,
      expiresAt: 0,
    };
    expect(await provider.checkout(order)).toEqual({
      status: 'pending',
      externalId: null,
      payTo: { chain_id: node.chainId, contract: usdt, to: treasury, amount: String(3n * PRICE) },
    });
    expect(await provider.check(order)).toMatchObject({ status: 'pending' });
    expect((USDT * 499n) / 100n).toBe(PRICE);
    // USDT is taken from the linked wallet: without one there is nothing to ask for.
    await expect(provider.checkout({ ...order, walletAddress: null })).rejects.toMatchObject({
      status: 400,
      code: 'wallet_required',
    });
  });

  it('is off without settings, and refuses half a configuration or a wrong value at start', () => {
    expect(loadUsdtSettings({})).toBeNull();
    expect(loadUsdtSettings(usdtSettings())).toMatchObject({ confirmations: CONFIRMATIONS, chainId: node.chainId });
    const { USDT_CONFIRMATIONS: _, ...noConfirmations } = usdtSettings();
    expect(loadUsdtSettings(noConfirmations)!.confirmations).toBe(3);
    expect(() => loadUsdtSettings({ USDT_RPC_URL: node.rpcUrl })).toThrow(
      /USDT_CHAIN_ID, USDT_CONTRACT, USDT_TREASURY/,
    );
    for (const bad of [
      { USDT_CONTRACT: '0x1234' },
      { USDT_TREASURY: zeroAddress },
      { USDT_TREASURY: usdt },
      { USDT_TREASURY: badChecksum(treasury) },
      { USDT_CHAIN_ID: '0' },
      { USDT_RPC_URL: 'ftp://node' },
      { USDT_CONFIRMATIONS: '0' },
    ])
      expect(() => loadUsdtSettings({ ...usdtSettings(), ...bad }), JSON.stringify(bad)).toThrow();
  });
});
