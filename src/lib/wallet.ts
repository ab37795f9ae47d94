// Browser wallets (spec §4, §5). Every installed wallet that announces itself through EIP-6963 is
// offered (name and icon) and the player picks one; `window.ethereum` is used only when none
// announces itself. Without either, mobile browsers go to the MetaMask app's deep link and desktop
// browsers may load the MetaMask SDK (QR pairing with the phone app) — the SDK is imported only
// then, so it never weighs on a page load. The wallet the player picked is the one findProvider()
// returns afterwards (sign-in, wallet binding, USDT payments).

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
}

/** An EIP-6963 announcement: the wallet's own name and icon (a data: URI) and its provider. */
export interface WalletChoice {
  uuid: string;
  name: string;
  /** A data:image/… URI, or '' when the wallet sent anything else (never a remote address). */
  icon: string;
  rdns: string;
  provider: Eip1193Provider;
}

interface Eip6963Detail {
  info?: { uuid?: unknown; name?: unknown; icon?: unknown; rdns?: unknown };
  provider?: Eip1193Provider;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider & { isMetaMask?: boolean; providers?: (Eip1193Provider & { isMetaMask?: boolean })[] };
  }
}

const METAMASK_RDNS = 'io.metamask';
/** The rdns of the wallet the player picked last (a device preference, kept across reloads). */
const CHOSEN_WALLET_KEY = 'pxt.wallet';

const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');
const announced: WalletChoice[] = [];
let listening = false;
function listen(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('eip6963:announceProvider', (e) => {
    const detail = (e as CustomEvent<Eip6963Detail>).detail;
    const provider = detail?.provider;
    if (!provider || typeof provider.request !== 'function') return;
    const uuid = text(detail.info?.uuid, 100);
    if (announced.some((a) => a.provider === provider || (uuid && a.uuid === uuid))) return;
    const icon = text(detail.info?.icon, 200_000);
    announced.push({
      uuid,
      name: text(detail.info?.name, 60).trim() || text(detail.info?.rdns, 100),
      icon: /^data:image\//i.test(icon) ? icon : '',
      rdns: text(detail.info?.rdns, 100),
      provider,
    });
  });
}

/** window.ethereum (the pre-EIP-6963 way); with several extensions in one, MetaMask's. */
export function injectedProvider(): Eip1193Provider | null {
  const eth = typeof window === 'undefined' ? undefined : window.ethereum;
  if (!eth) return null;
  return eth.providers?.find((p) => p.isMetaMask) ?? eth;
}

/**
 * Asks every installed wallet to announce itself (eip6963:requestProvider) and resolves with all
 * that did, the last chosen one first. Wallets answer at once as a rule; when none has, a slow one
 * gets until `waitMs`.
 */
export async function discoverWallets(waitMs = 400): Promise<WalletChoice[]> {
  listen();
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  const deadline = Date.now() + waitMs;
  while (announced.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const last = storedChoice();
  return [...announced].sort((a, b) => Number(b.rdns === last && last !== '') - Number(a.rdns === last && last !== ''));
}

let chosen: WalletChoice | null = null;

function storedChoice(): string {
  try {
    return localStorage.getItem(CHOSEN_WALLET_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Remembers the wallet the player picked: findProvider() returns it from now on. */
export function chooseWallet(choice: WalletChoice): void {
  chosen = choice;
  try {
    if (choice.rdns) localStorage.setItem(CHOSEN_WALLET_KEY, choice.rdns);
  } catch {
    /* storage unavailable: the choice holds for this page only */
  }
}

/** The wallet the player picked on this page, if any. */
export const chosenWallet = (): WalletChoice | null => chosen;

/**
 * The wallet to use without asking the player: the one they picked, else the announced one they
 * picked last time, else MetaMask, else the first announced, else window.ethereum, else null.
 */
export async function findProvider(waitMs = 400): Promise<Eip1193Provider | null> {
  if (chosen) return chosen.provider;
  const wallets = await discoverWallets(waitMs);
  const last = storedChoice();
  const pick =
    wallets.find((w) => last !== '' && w.rdns === last) ?? wallets.find((w) => w.rdns === METAMASK_RDNS) ?? wallets[0];
  return pick?.provider ?? injectedProvider();
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
export async function signText(
  provider: Eip1193Provider,
  text: string,
): Promise<{ address: string; signature: string }> {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[] | undefined;
  const address = accounts?.[0];
  if (!address) throw new Error('The wallet returned no account');
  const signature = (await provider.request({ method: 'personal_sign', params: [utf8ToHex(text), address] })) as string;
  return { address, signature };
}
