// Browser wallets (spec §4, §5): an injected EIP-1193 provider (window.ethereum) or one announced
// through EIP-6963 is used when present. Without one, mobile browsers go to the MetaMask app's deep
// link and desktop browsers may load the MetaMask SDK (QR pairing with the phone app) — the SDK is
// imported only then, so it never weighs on a page load.

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
}

interface Eip6963Detail {
  info?: { rdns?: string; name?: string };
  provider?: Eip1193Provider;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider & { isMetaMask?: boolean; providers?: (Eip1193Provider & { isMetaMask?: boolean })[] };
  }
}

const announced: Eip6963Detail[] = [];
let listening = false;
function listen(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('eip6963:announceProvider', (e) => {
    const detail = (e as CustomEvent<Eip6963Detail>).detail;
    if (detail?.provider && !announced.some((a) => a.provider === detail.provider)) announced.push(detail);
  });
}

function injected(): Eip1193Provider | null {
  const eth = window.ethereum;
  if (!eth) return null;
  // Several extensions at once: prefer MetaMask.
  return eth.providers?.find((p) => p.isMetaMask) ?? eth;
}

function fromAnnouncements(): Eip1193Provider | null {
  const metamask = announced.find((a) => a.info?.rdns === 'io.metamask');
  return (metamask ?? announced[0])?.provider ?? null;
}

/** The wallet to use: window.ethereum, else an EIP-6963 announcement within `waitMs`, else null. */
export async function findProvider(waitMs = 400): Promise<Eip1193Provider | null> {
  listen();
  const direct = injected() ?? fromAnnouncements();
  if (direct) return direct;
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    const p = injected() ?? fromAnnouncements();
    if (p) return p;
  }
  return null;
}

export const isMobileDevice = (ua = typeof navigator === 'undefined' ? '' : navigator.userAgent) =>
  /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(ua);

/** MetaMask's "open this dapp in the app" link for the current page (host + path, spec §5). */
export function metamaskDeepLink(location: Pick<Location, 'host' | 'pathname' | 'search'> = window.location): string {
  return `https://metamask.app.link/dapp/${location.host}${location.pathname}${location.search}`;
}

export const METAMASK_DOWNLOAD_URL = 'https://metamask.io/download/';

/** Desktop without an extension: MetaMask SDK (QR code to the phone app), loaded on demand. */
export async function metamaskSdkProvider(appName: string): Promise<Eip1193Provider> {
  const { MetaMaskSDK } = await import('@metamask/sdk');
  const sdk = new MetaMaskSDK({
    dappMetadata: { name: appName, url: window.location.origin },
    checkInstallationImmediately: false,
    enableAnalytics: false,
  });
  await sdk.init();
  const provider = sdk.getProvider();
  if (!provider) throw new Error('MetaMask SDK has no provider');
  return provider as unknown as Eip1193Provider;
}

/** Spec §4: the player turned the wallet prompt down (code 4001, or a message saying 'rejected'). */
export function isUserRejection(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === 4001 || (typeof e?.message === 'string' && /rejected/i.test(e.message));
}

/** UTF-8 text as 0x-hex, the form personal_sign expects. */
export function utf8ToHex(text: string): `0x${string}` {
  return `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** eth_requestAccounts, then personal_sign of `text` by the first account. */
export async function signText(provider: Eip1193Provider, text: string): Promise<{ address: string; signature: string }> {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[] | undefined;
  const address = accounts?.[0];
  if (!address) throw new Error('The wallet returned no account');
  const signature = (await provider.request({ method: 'personal_sign', params: [utf8ToHex(text), address] })) as string;
  return { address, signature };
}
