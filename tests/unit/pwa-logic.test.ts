// The PWA's pure rules: the VAPID key decoding, when the offline banner shows, which install help a
// device gets, and what the service worker shows and opens for a claim reminder.
import { describe, expect, it } from 'vitest';
import { notificationFor, pickClient, safeAppPath } from '../../sw/push';
import { base64UrlToBytes, sameBytes } from '@/features/pwa/lib/base64url';
import { installHint, isIos } from '@/features/pwa/lib/install-hint';
import { offlineBanner } from '@/features/pwa/state/offline-banner';

const ORIGIN = 'https://pxt.example';

describe('base64UrlToBytes', () => {
  it('decodes base64url with and without padding, including - and _', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0x00, 0x01]);
    const b64 = Buffer.from(bytes).toString('base64'); // "+/+/AAE="
    const url = b64.replace(/\+/g, '-').replace(/\//g, '_');
    expect(url).toContain('-');
    expect(url).toContain('_');
    expect([...base64UrlToBytes(url)]).toEqual([...bytes]);
    expect([...base64UrlToBytes(url.replace(/=+$/, ''))]).toEqual([...bytes]);
  });

  it('gives the 65-byte uncompressed point of a real VAPID public key', async () => {
    const { generateVAPIDKeys } = await import('web-push');
    const { publicKey } = generateVAPIDKeys();
    const key = base64UrlToBytes(publicKey);
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(0x04);
    expect(Buffer.from(key).toString('base64url')).toBe(publicKey);
  });

  it('refuses text outside the alphabet and impossible lengths', () => {
    expect(() => base64UrlToBytes('ab+c')).toThrow();
    expect(() => base64UrlToBytes('ab/c')).toThrow();
    expect(() => base64UrlToBytes('abcde')).toThrow();
    expect(base64UrlToBytes('')).toHaveLength(0);
  });

  it('compares keys byte by byte', () => {
    const a = Uint8Array.from([4, 1, 2]);
    expect(sameBytes(Uint8Array.from([4, 1, 2]).buffer, a)).toBe(true);
    expect(sameBytes(Uint8Array.from([4, 1, 3]), a)).toBe(false);
    expect(sameBytes(Uint8Array.from([4, 1]), a)).toBe(false);
    expect(sameBytes(null, a)).toBe(false);
  });
});

describe('offlineBanner', () => {
  it('is hidden online with nothing waiting', () => {
    expect(offlineBanner({ online: true, pending: 0 })).toEqual({ visible: false });
  });
  it('shows offline, with the waiting calls counted', () => {
    expect(offlineBanner({ online: false, pending: 0 })).toEqual({ visible: true, reason: 'offline', pending: 0 });
    expect(offlineBanner({ online: false, pending: 2 })).toEqual({ visible: true, reason: 'offline', pending: 2 });
  });
  it('shows "unreachable" when the browser says online but calls wait (a request got no answer)', () => {
    expect(offlineBanner({ online: true, pending: 1 })).toEqual({ visible: true, reason: 'unreachable', pending: 1 });
  });
  it('never counts below zero', () => {
    expect(offlineBanner({ online: false, pending: -3 })).toEqual({ visible: true, reason: 'offline', pending: 0 });
  });
});

describe('installHint', () => {
  const android = {
    userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/128 Mobile',
    platform: 'Linux armv8l',
    maxTouchPoints: 5,
    standalone: false,
  };
  const iphone = {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Mobile/15E148 Safari/604.1',
    platform: 'iPhone',
    maxTouchPoints: 5,
    standalone: false,
  };
  const ipad = {
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Version/17.5 Safari/605.1.15',
    platform: 'MacIntel',
    maxTouchPoints: 5,
    standalone: false,
  };
  const mac = { ...ipad, maxTouchPoints: 0 };

  it('recognises iPhone and iPadOS (a Mac with touch), not a Mac', () => {
    expect(isIos(iphone)).toBe(true);
    expect(isIos(ipad)).toBe(true);
    expect(isIos(mac)).toBe(false);
    expect(isIos(android)).toBe(false);
  });
  it('offers the real prompt where the browser gives one', () => {
    expect(installHint({ ...android, hasPrompt: true, dismissed: false })).toBe('prompt');
    expect(installHint({ ...android, hasPrompt: false, dismissed: false })).toBe('none');
  });
  it('shows the Share → Add to Home Screen how-to on iOS', () => {
    expect(installHint({ ...iphone, hasPrompt: false, dismissed: false })).toBe('ios');
    expect(installHint({ ...ipad, hasPrompt: false, dismissed: false })).toBe('ios');
    expect(installHint({ ...mac, hasPrompt: false, dismissed: false })).toBe('none');
  });
  it('shows nothing inside the installed app or once dismissed', () => {
    expect(installHint({ ...iphone, standalone: true, hasPrompt: false, dismissed: false })).toBe('none');
    expect(installHint({ ...android, hasPrompt: true, dismissed: true })).toBe('none');
    expect(installHint({ ...iphone, hasPrompt: false, dismissed: true })).toBe('none');
  });
});

describe('service worker: claim reminders', () => {
  it("shows the server's title, body and tag, and opens its app path", () => {
    const payload = {
      type: 'mining_ready',
      title: 'Your PXT is ready to claim',
      body: 'Session #7 ended.',
      url: '/miner',
      tag: 'mining-7',
      session_id: 7,
      ends_at: '2025-01-01T00:00:00.000Z',
    };
    const n = notificationFor(JSON.stringify(payload), ORIGIN);
    expect(n.title).toBe('Your PXT is ready to claim');
    expect(n.options).toMatchObject({ body: 'Session #7 ended.', tag: 'mining-7', data: { url: '/miner' } });
    expect(n.options.icon).toMatch(/^\/icons\/.+\.png$/);
  });
  it('still reminds when the body is empty or not JSON', () => {
    for (const text of [null, '', 'not json', '42']) {
      const n = notificationFor(text, ORIGIN);
      expect(n.title).toBeTruthy();
      expect(n.options.data.url).toBe('/miner');
    }
  });
  it('never opens another origin', () => {
    expect(safeAppPath('https://evil.example/miner', ORIGIN)).toBe('/miner');
    expect(safeAppPath('//evil.example/x', ORIGIN)).toBe('/miner');
    expect(safeAppPath(`${ORIGIN}/tasks?x=1`, ORIGIN)).toBe('/tasks?x=1');
    expect(safeAppPath(undefined, ORIGIN)).toBe('/miner');
  });
  it('focuses a window already on the page, else reuses the focused one, else opens one', () => {
    const blog = { url: `${ORIGIN}/blog`, focused: true };
    const miner = { url: `${ORIGIN}/miner/`, focused: false };
    expect(pickClient([blog, miner], '/miner', ORIGIN)).toEqual({ client: miner, navigate: false });
    expect(pickClient([miner, blog], '/tasks', ORIGIN)).toEqual({ client: blog, navigate: true });
    expect(pickClient([], '/miner', ORIGIN)).toBeNull();
  });
});
