// Renders the open modal (lib/modal-state.ts). Each modal is its own lazy chunk, so none of them
// weighs on the first visit. A feature adds its modal here: one line id → lazy import.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useModalState, type ModalId } from '../lib/modal-state';

type Lazy = LazyExoticComponent<ComponentType>;

const MODALS: Partial<Record<ModalId, Lazy>> = {
  main: lazy(() => import('../features/auth/components/main-login-modal')),
  login: lazy(() => import('../features/auth/components/login-modal')),
  notAuthorizedMiner: lazy(() => import('../features/auth/components/not-authorized-miner-modal')),
  error: lazy(() => import('../features/auth/components/error-modal')),
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
