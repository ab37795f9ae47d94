// Issue 24: where a sign-in ends (lib/return-to.ts) and where the installed app starts
// (lib/home-screen-launch.ts), as pure rules.
import { beforeEach, describe, expect, it } from 'vitest';
import { HOME_SCREEN_START_URL } from '@shared/constants';
import { homeScreenStart } from '@/lib/home-screen-launch';
import { rememberGuideDue, takeGuideDue } from '@/lib/new-player-guide';
import { rememberReturnTo, rememberSignInStart, takeReturnTo } from '@/lib/return-to';

beforeEach(() => sessionStorage.clear());

describe('a sign-in begun on a page', () => {
  it('ends on the miner from the landing or the miner', () => {
    for (const page of ['/', '/miner', '/miner/', '/?refCode=crew77']) {
      rememberSignInStart(page);
      expect(takeReturnTo(), page).toBe('/miner');
    }
  });

  it('stays on any other page, and comes back to it when the app leaves it meanwhile', () => {
    rememberSignInStart('/blog');
    expect(takeReturnTo()).toBeNull();
    rememberSignInStart('/profile?tab=security', true);
    expect(takeReturnTo()).toBe('/profile?tab=security');
  });

  it('keeps a page remembered before (the article a visitor chose)', () => {
    rememberReturnTo('/article/what-is-pxt');
    rememberSignInStart('/', true);
    expect(takeReturnTo()).toBe('/article/what-is-pxt');
  });

  it('the guide is due once', () => {
    expect(takeGuideDue()).toBe(false);
    rememberGuideDue();
    expect(takeGuideDue()).toBe(true);
    expect(takeGuideDue()).toBe(false);
  });
});

describe('the installed app’s start', () => {
  const at = (href: string) => {
    const u = new URL(href, 'https://pxt.example');
    return { pathname: u.pathname, search: u.search, hash: u.hash };
  };

  it('opens the miner for a signed-in player and the plain landing for a visitor', () => {
    expect(homeScreenStart(at(HOME_SCREEN_START_URL), true)).toBe('/miner');
    expect(homeScreenStart(at(HOME_SCREEN_START_URL), false)).toBe('/');
    expect(homeScreenStart(at(`${HOME_SCREEN_START_URL}#how`), false)).toBe('/#how');
  });

  it('leaves every other address alone', () => {
    for (const href of ['/', '/?refCode=crew77', '/miner?source=pwa', '/?source=web', `${HOME_SCREEN_START_URL}&x=1`]) {
      expect(homeScreenStart(at(href), true), href).toBeNull();
    }
  });
});
