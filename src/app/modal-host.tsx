// Renders the open modal (lib/modal-state.ts). Each modal is its own lazy chunk, so none of them
// weighs on the first visit. A feature adds its modal here: one line id → lazy import.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useModalState, type ModalId } from '../lib/modal-state';

type Lazy = LazyExoticComponent<ComponentType>;

const MODALS: Partial<Record<ModalId, Lazy>> = {
  main: lazy(() => import('../features/auth/components/main-login-modal')),
  login: lazy(() => import('../features/auth/components/login-modal')),
  register: lazy(() => import('../features/auth/components/register-modal')),
  confirmRegistration: lazy(() => import('../features/auth/components/confirm-registration-modal')),
  forgotPassword: lazy(() => import('../features/auth/components/forgot-password-modal')),
  confirmForgotPassword: lazy(() => import('../features/auth/components/confirm-forgot-password-modal')),
  connectWallet: lazy(() => import('../features/auth/components/connect-wallet-modal')),
  confirmWallet: lazy(() => import('../features/auth/components/confirm-wallet-modal')),
  accountDetails: lazy(() => import('../features/auth/components/account-details-modal')),
  updateUsername: lazy(() => import('../features/auth/components/update-username-modal')),
  updateEmail: lazy(() => import('../features/auth/components/update-email-modal')),
  undoEmailChange: lazy(() => import('../features/auth/components/undo-email-change-modal')),
  emailChanged: lazy(() => import('../features/auth/components/email-changed-modal')),
  updatePassword: lazy(() => import('../features/auth/components/update-password-modal')),
  newPassword: lazy(() => import('../features/auth/components/new-password-modal')),
  addEmailPassword: lazy(() => import('../features/auth/components/add-email-password-modal')),
  confirmEmail: lazy(() => import('../features/auth/components/confirm-email-modal')),
  wrongAccount: lazy(() => import('../features/auth/components/wrong-account-modal')),
  linkGoogle: lazy(() => import('../features/auth/components/link-google-modal')),
  updatePasswordNotification: lazy(() => import('../features/auth/components/update-password-notification-modal')),
  notAuthorizedMiner: lazy(() => import('../features/auth/components/not-authorized-miner-modal')),
  error: lazy(() => import('../features/auth/components/error-modal')),
  guide: lazy(() => import('../features/mining/components/guide-modal')),
  boostSelect: lazy(() => import('../features/mining/components/boost-select-modal')),
  noticeBoost: lazy(() => import('../features/mining/components/notice-boost-modal')),
  boostConfirm: lazy(() => import('../features/mining/components/boost-confirm-modal')),
  autoMiner: lazy(() => import('../features/mining/components/auto-miner-modal')),
  topUp: lazy(() => import('../features/mining/components/top-up-modal')),
  betaTest: lazy(() => import('../features/tasks/components/beta-test-modal')),
  betaTestSuccess: lazy(() => import('../features/tasks/components/beta-test-success-modal')),
};

export function ModalHost() {
  const { open } = useModalState();
  const Component = open ? MODALS[open] : undefined;
  if (!Component) return null;
  return (
    <Suspense fallback={null}>
      <Component key={open} />
    </Suspense>
  );
}
