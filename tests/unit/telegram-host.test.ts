// Telegram Mini App, the client's own rules (decisions §14): when the page counts as opened inside
// Telegram (decided at start without Telegram's SDK), the start parameter `ref_<code>` as a referral
// link, and which of the app's colour tokens each Telegram theme colour sets.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@shared/constants';
import { keepStartReferral, refCodeOfStartParam } from '@/features/telegram/lib/start-referral';
import { themeTokens } from '@/features/telegram/lib/telegram-theme';

const LAUNCH = 'tgWebAppData=user%3D%257B%257D%26hash%3Dab&tgWebAppVersion=8.0&tgWebAppPlatform=android';

async function freshHost() {
  vi.resetModules();
  return import('@/lib/telegram-host');
}

describe('telegram-host', () => {
  beforeEach(() => {
    sessionStorage.clear();
    delete document.documentElement.dataset.host;
    history.replaceState(null, '', '/');
  });
  afterEach(() => {
    delete (window as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy;
  });

  it('a plain visit is not a Mini App and sets nothing', async () => {
    const host = await freshHost();
    expect(host.isTelegramLaunch()).toBe(false);
    expect(document.documentElement.dataset.host).toBeUndefined();
    expect(sessionStorage.length).toBe(0);
  });

  it('launch parameters in the hash: a Mini App, and they are kept for the SDK after the hash is gone', async () => {
    history.replaceState(null, '', `/miner#${LAUNCH}`);
    expect((await freshHost()).isTelegramLaunch()).toBe(true);
    expect(document.documentElement.dataset.host).toBe('telegram');
    expect(JSON.parse(sessionStorage.getItem('tapps/launchParams')!)).toBe(LAUNCH);

    // A reload after the app navigated (no hash any more): still the Mini App.
    history.replaceState(null, '', '/tasks');
    expect((await freshHost()).isTelegramLaunch()).toBe(true);
  });

  it('an ordinary hash link is not a launch', async () => {
    history.replaceState(null, '', '/#how');
    expect((await freshHost()).isTelegramLaunch()).toBe(false);
  });

  it("Telegram's mobile WebView bridge alone counts", async () => {
    (window as { TelegramWebviewProxy?: unknown }).TelegramWebviewProxy = { postEvent() {} };
    expect((await freshHost()).isTelegramLaunch()).toBe(true);
  });
});

describe('start parameter ref_<code>', () => {
  beforeEach(() => {
    localStorage.clear();
    history.replaceState(null, '', '/');
  });

  it('reads the code only from ref_ with a referral code’s characters', () => {
    expect(refCodeOfStartParam('ref_AbC-12_x')).toBe('AbC-12_x');
    expect(refCodeOfStartParam('ref_')).toBeNull();
    expect(refCodeOfStartParam('promo_1')).toBeNull();
    expect(refCodeOfStartParam('ref_a b')).toBeNull();
    expect(refCodeOfStartParam(undefined)).toBeNull();
  });

  it('is kept as the referral link complete-registration sends', () => {
    keepStartReferral('ref_crew77', 'https://pxt.example');
    expect(localStorage.getItem(STORAGE_KEYS.referral)).toBe('https://pxt.example/?refCode=crew77');
  });

  it('gives way to a referral link in the address, and keeps what was there without one', () => {
    history.replaceState(null, '', '/?refCode=fromLink');
    keepStartReferral('ref_crew77', 'https://pxt.example');
    expect(localStorage.getItem(STORAGE_KEYS.referral)).toBeNull();
    history.replaceState(null, '', '/');
    localStorage.setItem(STORAGE_KEYS.referral, 'https://pxt.example/?refCode=earlier');
    keepStartReferral('other', 'https://pxt.example');
    expect(localStorage.getItem(STORAGE_KEYS.referral)).toBe('https://pxt.example/?refCode=earlier');
  });
});

describe('themeTokens', () => {
  it("puts Telegram's seven main colours on the app's tokens", () => {
    const tokens = themeTokens({
      bg_color: '#ffffff',
      text_color: '#000000',
      hint_color: '#999999',
      link_color: '#2481cc',
      button_color: '#3390ec',
      button_text_color: '#fffffe',
      secondary_bg_color: '#efeff3',
    });
    expect(tokens).toEqual({
      '--bg': '#ffffff',
      '--bg-2': '#efeff3',
      '--panel': '#efeff3',
      '--panel-2': '#efeff3',
      '--line': '#999999',
      '--text': '#000000',
      '--muted': '#999999',
      '--neon': '#3390ec',
      '--on-neon': '#fffffe',
      '--neon-2': '#2481cc',
    });
  });

  it('prefers the section colours where Telegram sends them, and leaves a token without a colour alone', () => {
    const tokens = themeTokens({
      bg_color: '#17212b',
      section_bg_color: '#1f2b38',
      section_separator_color: '#111921',
    });
    expect(tokens).toEqual({
      '--bg': '#17212b',
      '--bg-2': '#17212b',
      '--panel': '#1f2b38',
      '--panel-2': '#1f2b38',
      '--line': '#111921',
    });
  });
});
