import { describe, expect, it } from 'vitest';
import { parseQuery } from '@/features/auth/lib/query-actions';
import { fadeClass, initialFadeState, nextFadeState } from '@/features/layout/state/header-fade';
import { detectLanguage } from '@/lib/i18n';
import { shouldReload } from '@/lib/language';

describe('query parameters (spec §2)', () => {
  it('maps each modal link to its action', () => {
    expect(parseQuery('?modal=restorePassword&token=t1').action).toEqual({ kind: 'newPassword', token: 't1' });
    expect(parseQuery('?modal=restorePassword').action).toEqual({ kind: 'newPassword', token: null });
    expect(parseQuery('?modal=confirmRegistration&token=t2').action).toEqual({
      kind: 'confirmRegistration',
      token: 't2',
    });
    expect(parseQuery('?modal=confirmEmailChange&token=t3&email=a%40b.co').action).toEqual({
      kind: 'confirmEmailChange',
      token: 't3',
      email: 'a@b.co',
    });
    expect(parseQuery('?modal=confirmEmail&token=t4').action).toEqual({ kind: 'confirmEmail', token: 't4' });
    expect(parseQuery('?modal=confirmPasswordChange&token=t5').action).toEqual({ kind: 'updatePassword', token: 't5' });
    expect(parseQuery('?modal=undoEmailChange&token=t6').action).toEqual({ kind: 'undoEmailChange', token: 't6' });
  });
  it('ignores links without their token and unknown modals', () => {
    expect(parseQuery('?modal=confirmRegistration').action).toBeNull();
    expect(parseQuery('?modal=undoEmailChange').action).toBeNull();
    expect(parseQuery('?modal=confirmEmailChange&token=x').action).toBeNull();
    expect(parseQuery('?modal=somethingElse&token=x').action).toBeNull();
  });
  it('picks up refCode and lists what to remove from the address bar', () => {
    expect(parseQuery('?refCode=abc&utm=1')).toEqual({ action: null, refCode: 'abc', consumed: ['refCode'] });
    expect(parseQuery('?modal=confirmEmail&token=t&refCode=z').consumed).toEqual([
      'modal',
      'token',
      'email',
      'refCode',
    ]);
    expect(parseQuery('?page=2').consumed).toEqual([]);
  });
});

describe('header fade (spec §2)', () => {
  it('fades once on the first entry to profile, tasks, referrals and arcade', () => {
    let s = nextFadeState(initialFadeState, '/');
    expect(s.fade).toBe(false);
    s = nextFadeState(s, '/tasks');
    expect(s.fade).toBe(true);
    expect(nextFadeState(s, '/tasks')).toBe(s);
    s = nextFadeState(s, '/blog');
    expect(s.fade).toBe(false);
    s = nextFadeState(s, '/tasks/');
    expect(s.fade).toBe(false);
    s = nextFadeState(s, '/arcade');
    expect(s.fade).toBe(true);
  });
  it('starts a new animation when going from one fade page straight to another', () => {
    const tasks = nextFadeState(nextFadeState(initialFadeState, '/'), '/tasks');
    const referrals = nextFadeState(tasks, '/referrals');
    expect(fadeClass(tasks)).toMatch(/site-header--fade/);
    expect(fadeClass(referrals)).toMatch(/site-header--fade/);
    // The header stays mounted: only a different animation name makes the browser replay it.
    expect(fadeClass(referrals)).not.toBe(fadeClass(tasks));
    expect(fadeClass(nextFadeState(referrals, '/blog'))).toBe('');
  });
});

describe('language (spec §4, §9)', () => {
  it('detects the saved choice, then the browser, then English', () => {
    expect(detectLanguage('ru', ['en-US'])).toBe('ru');
    expect(detectLanguage(null, ['de-DE', 'ru-RU'])).toBe('ru');
    expect(detectLanguage('fr', ['fr-FR'])).toBe('en');
    expect(detectLanguage(null, [])).toBe('en');
  });
  it('reloads unless the last reload was under 2 s ago', () => {
    expect(shouldReload(null, 10_000)).toBe(true);
    expect(shouldReload(9_000, 10_000)).toBe(false);
    expect(shouldReload(8_000, 10_000)).toBe(true);
  });
});
