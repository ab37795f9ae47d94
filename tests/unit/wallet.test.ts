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
    expect(walletLoginText('PXT Companion', 1700000000000)).toBe('Authorization in the PXT Companion. Timestamp: 1700000000000');
    expect(walletBindText(5)).toBe('Bind wallet to your account. Timestamp: 5');
    expect(utf8ToHex('Hi ✓')).toBe('0x4869' + '20' + 'e29c93');
  });
  it('builds the MetaMask deep link from host and path', () => {
    expect(metamaskDeepLink({ host: 'pxt.example:8443', pathname: '/miner', search: '' })).toBe('https://metamask.app.link/dapp/pxt.example:8443/miner');
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
