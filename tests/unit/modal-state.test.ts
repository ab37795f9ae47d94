import { describe, expect, it } from 'vitest';
import {
  backModalState,
  closeModalState,
  initialModalState,
  nextGuideStep,
  openModalState,
  prevGuideStep,
  setGuideStep,
  switchModalState,
} from '@/lib/modal-state';

describe('modal machine (spec §4)', () => {
  it('starts closed with the guide at step 1 of 5', () => {
    expect(initialModalState).toMatchObject({ open: null, previous: null, guideStep: 1, guideTotal: 5 });
  });

  it('switching closes the current modal, remembers it as previous and opens the next', () => {
    const s = switchModalState(openModalState(initialModalState, 'main'), 'login');
    expect(s.open).toBe('login');
    expect(s.previous).toBe('main');
  });

  it('back closes the current one and reopens the previous, with its params', () => {
    let s = openModalState(initialModalState, 'forgotPassword', { email: 'a@b.co' });
    s = switchModalState(s, 'confirmForgotPassword');
    s = backModalState(s);
    expect(s.open).toBe('forgotPassword');
    expect(s.params).toEqual({ email: 'a@b.co' });
    expect(s.previous).toBeNull();
    expect(backModalState(s).open).toBeNull();
  });

  it('opening the guide resets its step to 1, also through a switch', () => {
    let s = setGuideStep(openModalState(initialModalState, 'guide'), 4);
    expect(s.guideStep).toBe(4);
    s = openModalState(closeModalState(s), 'guide');
    expect(s.guideStep).toBe(1);
    s = switchModalState(nextGuideStep(s), 'guide');
    expect(s.guideStep).toBe(1);
  });

  it('steps go up to 5 and down to 1, and direct jumps land within 1–5', () => {
    let s = openModalState(initialModalState, 'guide');
    for (let i = 0; i < 10; i++) s = nextGuideStep(s);
    expect(s.guideStep).toBe(5);
    for (let i = 0; i < 10; i++) s = prevGuideStep(s);
    expect(s.guideStep).toBe(1);
    expect(setGuideStep(s, 0).guideStep).toBe(1);
    expect(setGuideStep(s, 9).guideStep).toBe(5);
    expect(setGuideStep(s, 3.7).guideStep).toBe(3);
    expect(setGuideStep(s, Number.NaN).guideStep).toBe(1);
  });

  it('closing forgets both the open and the previous modal', () => {
    const s = closeModalState(switchModalState(openModalState(initialModalState, 'main'), 'login'));
    expect(s).toMatchObject({ open: null, previous: null, params: {} });
  });
});
