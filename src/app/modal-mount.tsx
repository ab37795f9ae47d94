// The modal host (id → lazy modal) loads with the first modal that opens: a visitor who only reads
// the landing page does not download the table of every modal of the app.
import { lazy, Suspense } from 'react';
import { useModalState } from '../lib/modal-state';

const ModalHost = lazy(() => import('./modal-host').then((m) => ({ default: m.ModalHost })));

export function ModalMount() {
  const { open } = useModalState();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ModalHost />
    </Suspense>
  );
}
