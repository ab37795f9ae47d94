// Pure rules of the referrals and profile pages: award completion, claim texts, the profile view.
import { describe, expect, it } from 'vitest';
import type { Me } from '@shared/api/auth';
import {
  awardRows,
  canClaimAwards,
  claimAnswerText,
  claimFailureText,
  listFailureText,
} from '@/features/referrals/state/awards';
import { profileView } from '@/features/profile/state/profile-view';
import { type ApiFailure, toApiFailure } from '@/lib/api-errors';

const failure = (body: Record<string, unknown>, status = 400): ApiFailure =>
  toApiFailure({ status, response: { status }, data: body }, 'fallback');
const network = toApiFailure(new TypeError(''), 'fallback');

describe('referral awards', () => {
  it('offers the claim while a reached award is unpaid, and, while that is not known, for any reached one (issue 24)', () => {
    expect(canClaimAwards(awardRows(1, new Set()), true)).toBe(false);
    expect(canClaimAwards(awardRows(2, new Set()), true)).toBe(true);
    expect(canClaimAwards(awardRows(2, new Set([2])), true)).toBe(false);
    expect(canClaimAwards(awardRows(4, new Set([2])), true)).toBe(true);
    expect(canClaimAwards(awardRows(2), false)).toBe(true);
    expect(
      awardRows(4, new Set([2]))
        .map((r) => r.paid)
        .slice(0, 3),
    ).toEqual([true, false, false]);
  });

  it('lists the 9 awards with their points', () => {
    expect(awardRows(0).map((a) => [a.friends, a.points])).toEqual([
      [2, 4],
      [4, 8],
      [6, 12],
      [10, 20],
      [20, 40],
      [40, 80],
      [60, 120],
      [80, 160],
      [100, 200],
    ]);
  });

  it('completes an award once the referral count reaches its friends (decisions §7 Deviation)', () => {
    const done = (n: number) =>
      awardRows(n)
        .filter((a) => a.completed)
        .map((a) => a.friends);
    expect(done(0)).toEqual([]);
    expect(done(1)).toEqual([]);
    expect(done(2)).toEqual([2]);
    // The spec's threshold (5) would leave "2 friends" open at 4 referrals.
    expect(done(4)).toEqual([2, 4]);
    expect(done(10)).toEqual([2, 4, 6, 10]);
    expect(done(100)).toHaveLength(9);
  });

  it("says 'Not enough referrals for new awards' for the no-new-rewards answer", () => {
    expect(claimAnswerText('en', { detail: 'Нет новых наград', code: 'no_new_rewards' })).toBe(
      'Not enough referrals for new awards',
    );
    expect(claimAnswerText('en', { detail: 'Нет новых наград' } as never)).toBe('Not enough referrals for new awards');
    expect(claimAnswerText('ru', { detail: 'Нет новых наград', code: 'no_new_rewards' })).toBe('Нет новых наград');
    expect(
      claimAnswerText('en', { detail: 'Награды за приглашения начислены', code: 'referral_rewards_granted' }),
    ).toBe('Referral awards granted');
  });

  it("falls back to 'Failed to add reward' and 'Could not fetch referrals' without a server message", () => {
    expect(claimFailureText('en', network, 'Failed to add reward')).toBe('Failed to add reward');
    expect(claimFailureText('en', failure({ detail: 'Boom' }, 500), 'Failed to add reward')).toBe(
      'Failed to add reward',
    );
    expect(
      claimFailureText('en', failure({ detail: 'Ошибка базы данных, попробуйте позже', code: 'database_error' }), 'x'),
    ).toBe('Database error, try again later');
    expect(listFailureText(network, 'Could not fetch referrals')).toBe('Could not fetch referrals');
    expect(
      listFailureText(failure({ detail: 'Too many attempts. Try again in 2 seconds.', code: 'throttled' }, 429), 'x'),
    ).toBe('Too many attempts. Try again in 2 seconds.');
  });
});

describe('profile view', () => {
  const me: Me = {
    username: 'NeonRider7',
    email: 'rider@example.com',
    wallet_address: '',
    balance: 140,
    token: 12.5,
    gems: 50,
    referral_link: 'http://localhost/?refCode=abc',
    password_set: true,
    mining: false,
    ico: false,
    language: false,
  };

  it('shows an e-mail account without a wallet: wallet not linked, password change, link a wallet', () => {
    const v = profileView(me, 'en');
    expect(v).toMatchObject({
      username: 'NeonRider7',
      email: 'rider@example.com',
      wallet: null,
      coins: 140,
      pxt: '12.500000',
      gems: 50,
    });
    expect(v).toMatchObject({
      canChangeEmail: true,
      canChangePassword: true,
      canAddEmailPassword: false,
      canLinkWallet: true,
      needsPassword: false,
    });
  });

  it('shows a wallet account: the short wallet, add e-mail and password, no wallet link', () => {
    const wallet = `0x${'ab'.repeat(20)}`;
    const v = profileView({ ...me, username: wallet, email: '', wallet_address: wallet, password_set: false }, 'en');
    expect(v.wallet).toBe('0xababa...bab');
    // A wallet sign-up's address is not a username yet.
    expect(v.username).toBeNull();
    expect(v).toMatchObject({
      email: null,
      canChangeEmail: false,
      canChangePassword: false,
      canAddEmailPassword: true,
      canLinkWallet: false,
    });
  });
});
