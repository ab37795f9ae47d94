import { beforeEach, describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { ROUTE_ACCESS, decideAccess } from '@/app/route-access';
import { refusedTo } from '@/app/route-guard';
import { saveCurrentUser } from '@/lib/current-user';
import { initialModalState, modalStateAtom } from '@/lib/modal-state';
import { setTokens, signOut } from '@/lib/session';
import { store } from '@/lib/store';

const me = {
  username: 'punk1',
  email: '',
  wallet_address: '',
  balance: 0,
  token: 0,
  gems: 0,
  referral_link: '',
  password_set: false,
  mining: false,
  ico: false,
  language: false,
};

describe('route access (spec §2, §6)', () => {
  it('lists every route of the spec with its access', () => {
    expect(ROUTE_ACCESS).toEqual({
      '/': 'public',
      '/blog': 'public',
      '/profile': 'public',
      '*': 'public',
      '/tasks': 'signedIn',
      '/article/:id': 'signedIn',
      '/referrals': 'signedIn',
      '/arcade': 'signedIn',
      '/miner': 'signedIn',
      '/mining': 'signedIn',
      '/boost': 'signedIn',
      '/ico': 'iso',
      '/privacy': 'public',
      '/terms': 'public',
      '/auth/:provider/callback': 'public',
    });
  });

  it('lets everyone see public pages', () => {
    expect(decideAccess('public', { signedIn: false, iso: false })).toEqual({ allow: true });
  });
  it('sends visitors of signed-in pages to / with the main login', () => {
    expect(decideAccess('signedIn', { signedIn: false, iso: false })).toEqual({
      allow: false,
      redirectTo: '/',
      openMainLogin: true,
    });
    expect(decideAccess('signedIn', { signedIn: true, iso: false })).toEqual({ allow: true });
  });
  it('opens /ico only with the iso flag', () => {
    expect(decideAccess('iso', { signedIn: true, iso: false })).toEqual({
      allow: false,
      redirectTo: '/',
      openMainLogin: false,
    });
    expect(decideAccess('iso', { signedIn: true, iso: true })).toEqual({ allow: true });
    expect(decideAccess('iso', { signedIn: false, iso: true })).toMatchObject({ allow: false, openMainLogin: true });
  });
});

describe('the route guard', () => {
  const run = async (path: keyof typeof ROUTE_ACCESS, url = '/') => {
    if (ROUTE_ACCESS[path] === 'public') return 'no guard';
    const to = await refusedTo(path, url);
    return to === null ? 'allowed' : `to ${to}`;
  };

  beforeEach(async () => {
    await signOut();
    store.set(modalStateAtom, initialModalState);
  });

  it('public pages have no guard', async () => {
    expect(await run('/')).toBe('no guard');
    expect(await run('/profile')).toBe('no guard');
  });

  it('redirects a visitor and opens the main login', async () => {
    expect(await run('/miner')).toBe('to /');
    expect(store.get(modalStateAtom).open).toBe('main');
  });

  it('keeps a referral code (and an e-mail link) of a signed-in-only page on the way to /', async () => {
    expect(await run('/tasks', '/tasks?refCode=crew77')).toBe('to /?refCode=crew77');
    expect(await run('/miner', '/miner?utm_source=tg&refCode=crew77&x=1')).toBe('to /?refCode=crew77');
    expect(await run('/referrals', '/referrals?modal=confirmEmail&token=t1')).toBe('to /?modal=confirmEmail&token=t1');
    expect(await run('/arcade', '/arcade?utm_source=tg')).toBe('to /');
  });

  it('lets a signed-in player through, and /ico only with the flag', async () => {
    setTokens({ access: 'a', refresh: 'r' });
    await saveCurrentUser(me);
    expect(await run('/miner')).toBe('allowed');
    expect(await run('/ico')).toBe('to /');
    expect(store.get(modalStateAtom).open).toBeNull();
    await saveCurrentUser({ ...me, ico: true });
    expect(await run('/ico')).toBe('allowed');
  });
});
