// An injected EIP-1193 wallet for the browser tests whose answers are real: the page's
// `window.ethereum` forwards personal_sign and eth_sendTransaction to Node, which signs with a viem
// account and sends to a local anvil node. It starts on Ethereum (0x1), as a fresh MetaMask would,
// so the app must switch it to the payment chain; a chain it does not know answers 4902.
// `injectTwoWallets`: two wallets that announce themselves through EIP-6963 and sign in Node.
import type { Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createWalletClient, defineChain, type Hex, http, type PrivateKeyAccount } from 'viem';

export interface WalletLog {
  /** Every method the page asked for, in order. */
  calls: string[];
  sent: Hex[];
}

export async function injectChainWallet(
  page: Page,
  account: PrivateKeyAccount,
  node: { rpcUrl: string; chainId: number },
): Promise<WalletLog> {
  const log: WalletLog = { calls: [], sent: [] };
  const chain = defineChain({
    id: node.chainId,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [node.rpcUrl] } },
  });
  const wallet = createWalletClient({ account, chain, transport: http(node.rpcUrl) });
  let chainId = 1;
  const known = new Set([1, node.chainId]);
  type Answer = { result?: unknown; error?: { code: number; message: string } };
  await page.exposeFunction('__pxtTestWallet', async (method: string, params: unknown[] = []): Promise<Answer> => {
    log.calls.push(method);
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [account.address] };
      case 'eth_chainId':
        return { result: `0x${chainId.toString(16)}` };
      case 'wallet_switchEthereumChain': {
        const wanted = Number(BigInt((params[0] as { chainId: string }).chainId));
        if (!known.has(wanted)) return { error: { code: 4902, message: `Unrecognized chain ID ${wanted}` } };
        chainId = wanted;
        return { result: null };
      }
      case 'personal_sign':
        return { result: await account.signMessage({ message: { raw: params[0] as Hex } }) };
      case 'eth_sendTransaction': {
        const tx = params[0] as { from: string; to: Hex; data: Hex; value?: Hex };
        if (tx.from.toLowerCase() !== account.address.toLowerCase())
          return { error: { code: 4100, message: 'unknown account' } };
        if (chainId !== node.chainId) return { error: { code: -32000, message: `wallet is on chain ${chainId}` } };
        const hash = await wallet.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : 0n,
        });
        log.sent.push(hash);
        return { result: hash };
      }
      default:
        return { error: { code: 4200, message: `unsupported ${method}` } };
    }
  });
  await page.addInitScript(() => {
    const call = (
      window as unknown as {
        __pxtTestWallet: (
          m: string,
          p?: unknown[],
        ) => Promise<{ result?: unknown; error?: { code: number; message: string } }>;
      }
    ).__pxtTestWallet;
    (window as unknown as { ethereum: unknown }).ethereum = {
      isMetaMask: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const r = await call(method, params);
        if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
        return r.result;
      },
      on() {},
      removeListener() {},
    };
  });
  return log;
}

/** Two wallets that announce themselves (EIP-6963), the first also as window.ethereum, each signing with its own key. */
export async function injectTwoWallets(page: Page) {
  const accounts = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())];
  const signed: string[][] = [[], []];
  await page.exposeFunction('__pxtTestSignWith', async (index: number, hex: `0x${string}`) => {
    signed[index].push(Buffer.from(hex.slice(2), 'hex').toString('utf8'));
    return accounts[index].signMessage({ message: { raw: hex } });
  });
  await page.addInitScript(
    (addresses: string[]) => {
      const signWith = (window as unknown as { __pxtTestSignWith: (i: number, hex: string) => Promise<string> })
        .__pxtTestSignWith;
      const dot = (color: string) =>
        `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="${color}"/></svg>`)}`;
      const wallets = addresses.map((address, index) => ({
        info: {
          uuid: `00000000-0000-4000-8000-00000000000${index}`,
          name: ['Alpha Wallet', 'Beta Wallet'][index],
          icon: dot(['#f00', '#00f'][index]),
          rdns: ['com.alpha', 'com.beta'][index],
        },
        provider: {
          async request({ method, params }: { method: string; params?: unknown[] }) {
            if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
            if (method === 'eth_chainId') return '0x1';
            if (method === 'personal_sign') return signWith(index, String(params?.[0]));
            throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
          },
          on() {},
          removeListener() {},
        },
      }));
      (window as unknown as { ethereum: unknown }).ethereum = wallets[0].provider;
      const announce = () =>
        wallets.forEach((w) =>
          window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze(w) })),
        );
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
    },
    accounts.map((a) => a.address),
  );
  return { accounts, signed };
}

/** A browser wallet (window.ethereum, starting on 0x1) that only signs, with a fresh key in Node; its address. */
export async function injectSigningWallet(page: Page): Promise<Hex> {
  const account = privateKeyToAccount(generatePrivateKey());
  await page.exposeFunction('__pxtTestSign', (hex: Hex) => account.signMessage({ message: { raw: hex } }));
  await page.addInitScript((address: string) => {
    const sign = (window as unknown as { __pxtTestSign: (hex: string) => Promise<string> }).__pxtTestSign;
    (window as unknown as { ethereum: unknown }).ethereum = {
      isMetaMask: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
        if (method === 'eth_chainId') return '0x1';
        if (method === 'personal_sign') return sign(String(params?.[0]));
        throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      },
      on() {},
      removeListener() {},
    };
  }, account.address);
  return account.address;
}
