// The modal machine of spec §4: one open modal at a time, a previous-modal marker for "back", and
// the mining guide's step counter. The transitions are pure functions (unit-tested); the atom and
// the small action helpers below apply them to the app's store.
import { atom, useAtomValue } from 'jotai';
import { GUIDE_STEPS } from '@shared/constants';
import { store } from './store';

/** Every modal of the product. Features render them; the modal host in src/app maps id → component. */
export type ModalId =
  | 'main'
  | 'login'
  | 'register'
  | 'confirmRegistration'
  | 'forgotPassword'
  | 'confirmForgotPassword'
  | 'connectWallet'
  | 'confirmWallet'
  | 'accountDetails'
  | 'updateUsername'
  | 'updateEmail'
  | 'undoEmailChange'
  | 'emailChanged'
  | 'updatePassword'
  | 'newPassword'
  | 'addEmailPassword'
  | 'confirmEmail'
  | 'wrongAccount'
  | 'linkGoogle'
  | 'updatePasswordNotification'
  | 'notAuthorizedMiner'
  | 'error'
  | 'guide'
  | 'autoMiner'
  | 'boostSelect'
  | 'noticeBoost'
  | 'boostConfirm'
  | 'topUp'
  | 'betaTest'
  | 'betaTestSuccess';

/** Values a modal was opened with (e.g. the token of an e-mail link). */
export type ModalParams = Record<string, string>;

export interface ModalState {
  open: ModalId | null;
  previous: ModalId | null;
  params: ModalParams;
  /** Params of the previous modal, restored by `back`. */
  previousParams: ModalParams;
  guideStep: number;
  guideTotal: number;
}

export const initialModalState: ModalState = {
  open: null,
  previous: null,
  params: {},
  previousParams: {},
  guideStep: 1,
  guideTotal: GUIDE_STEPS,
};

const clampStep = (s: ModalState, step: number) =>
  Math.min(s.guideTotal, Math.max(1, Number.isFinite(step) ? Math.trunc(step) : 1));

/** Opens a modal on its own (nothing to go back to). Opening the guide starts it at step 1. */
export function openModalState(s: ModalState, id: ModalId, params: ModalParams = {}): ModalState {
  return { ...s, open: id, previous: null, params, previousParams: {}, guideStep: id === 'guide' ? 1 : s.guideStep };
}

/** Closes the current modal and opens `id`, remembering the current one as previous. */
export function switchModalState(s: ModalState, id: ModalId, params: ModalParams = {}): ModalState {
  return {
    ...s,
    open: id,
    previous: s.open,
    params,
    previousParams: s.params,
    guideStep: id === 'guide' ? 1 : s.guideStep,
  };
}

/** Closes the current modal and reopens the previous one (or nothing). */
export function backModalState(s: ModalState): ModalState {
  return { ...s, open: s.previous, previous: null, params: s.previousParams, previousParams: {} };
}

export function closeModalState(s: ModalState): ModalState {
  return { ...s, open: null, previous: null, params: {}, previousParams: {} };
}

export const nextGuideStep = (s: ModalState): ModalState => ({ ...s, guideStep: clampStep(s, s.guideStep + 1) });
export const prevGuideStep = (s: ModalState): ModalState => ({ ...s, guideStep: clampStep(s, s.guideStep - 1) });
export const setGuideStep = (s: ModalState, step: number): ModalState => ({ ...s, guideStep: clampStep(s, step) });

export const modalStateAtom = atom<ModalState>(initialModalState);

const apply = (f: (s: ModalState) => ModalState) => store.set(modalStateAtom, f(store.get(modalStateAtom)));

export const openModal = (id: ModalId, params?: ModalParams) => apply((s) => openModalState(s, id, params));
export const switchModal = (id: ModalId, params?: ModalParams) => apply((s) => switchModalState(s, id, params));
export const backModal = () => apply(backModalState);
export const closeModal = () => apply(closeModalState);
export const guideNext = () => apply(nextGuideStep);
export const guidePrev = () => apply(prevGuideStep);
export const guideGoTo = (step: number) => apply((s) => setGuideStep(s, step));

export const useModalState = () => useAtomValue(modalStateAtom);
