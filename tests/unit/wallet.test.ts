import { describe, expect, it } from 'vitest';
import { walletBindText, walletLoginText } from '@shared/wallet-texts';
import { shortWallet } from '@shared/validation';
import { isMobileDevice, isUserRejection, metamaskDeepLink, utf8ToHex } from '@/lib/wallet';
import { sameAddress } from '@/features/auth/lib/wallet-flow';

describe('wallet display (spec §2, §9)', () => {
  it('shows up to 10 characters whole, else the first 7, an ellipsis and the last 3', () => {
    expect(shortWallet('0x12345678')).toBe('0x12345678');
    expect(shortWallet('0x123456789')).toBe('0x12345...789');
    expect(shortWallet('0xAbCdEf0123456789aBcDeF0123456789AbCdEf01')).toBe('0xAbCdE...f01');
  });
});

describe('wallet flow helpers', () => {
  it('treats code 4001 or a message containing "rejected" as the player saying no', () => {
    expect(isUserRejection({ code: 4001, message: 'User denied' })).toBe(true);
    expect(isUserRejection(new Error('User rejected the request.'))).toBe(true);
    expect(isUserRejection({ code: -32002, message: 'Request already pending' })).toBe(false);
    expect(isUserRejection(null)).toBe(false);
  });
  it('signs the exact texts of the spec, hex-encoded as personal_sign expects', () => {
    expect(walletLoginText('PXT Companion', 1700000000000)).toBe(
      'Authorization in the PXT Companion. Timestamp: 1700000000000',
    );
    expect(walletBindText(5)).toBe('Bind wallet to your account. Timestamp: 5');
    expect(utf8ToHex('Hi ✓')).toBe('0x4869' + '20' + 'e29c93');
  });
  it('builds the MetaMask deep link from host and path', () => {
    expect(metamaskDeepLink({ host: 'pxt.example:8443', pathname: '/miner', search: '' })).toBe(
      'https://metamask.app.link/dapp/pxt.example:8443/miner',
    );
  });
  it('recognises mobile browsers', () => {
    expect(isMobileDevice('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true);
    expect(isMobileDevice('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36')).toBe(true);
    expect(isMobileDevice('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0')).toBe(false);
  });
  it('compares addresses without regard to case (a new wallet user is named after the address)', () => {
    expect(sameAddress('0xABCDEF', '0xabcdef')).toBe(true);
    expect(sameAddress('player1', '0xabcdef')).toBe(false);
    expect(sameAddress('', '')).toBe(false);
  });
});

describe('wallet discovery (EIP-6963)', () => {
  it('offers every wallet that announces itself, window.ethereum only when none does, and the chosen one afterwards', async () => {
    const { chooseWallet, discoverWallets, findProvider } = await import('@/lib/wallet');
    const request = async () => null;
    const legacy = { request };
    window.ethereum = legacy;
    // Nobody announces: window.ethereum.
    expect(await discoverWallets(0)).toEqual([]);
    expect(await findProvider(0)).toBe(legacy);

    const alpha = { request };
    const beta = { request };
    const announce = () => {
      for (const [provider, info] of [
        [alpha, { uuid: 'u-a', name: 'Alpha Wallet', icon: 'data:image/svg+xml;base64,PHN2Zy8+', rdns: 'com.alpha' }],
        [beta, { uuid: 'u-b', name: 'Beta Wallet', icon: 'https://tracker.example/icon.png', rdns: 'com.beta' }],
      ] as const)
        window.dispatchEvent(
          new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
        );
    };
    window.addEventListener('eip6963:requestProvider', announce);
    try {
      const wallets = await discoverWallets(0);
      expect(wallets.map((w) => [w.name, w.rdns, w.icon])).toEqual([
        ['Alpha Wallet', 'com.alpha', 'data:image/svg+xml;base64,PHN2Zy8+'],
        // Only data: icons are shown: a remote one would tell a third party who opened the dialog.
        ['Beta Wallet', 'com.beta', ''],
      ]);
      // Announced wallets come before window.ethereum.
      expect(await findProvider(0)).toBe(alpha);
      chooseWallet(wallets[1]);
      expect(await findProvider(0)).toBe(beta);
      expect(localStorage.getItem('pxt.wallet')).toBe('com.beta');
      // The last choice is offered first next time.
      expect((await discoverWallets(0)).map((w) => w.rdns)).toEqual(['com.beta', 'com.alpha']);
    } finally {
      window.removeEventListener('eip6963:requestProvider', announce);
      delete window.ethereum;
    }
  });
});
