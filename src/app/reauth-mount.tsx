// The reauth prompt (lib/reauth-request.ts) over whatever dialog is open: loaded only when a change asks
// for proof, and drawn after the modal host so it sits on top of the dialog that asked.
import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { reauthRequestAtom } from '../lib/reauth-request';

const ReauthPrompt = lazy(() => import('../features/auth/components/reauth-prompt'));

export function ReauthMount() {
  const pending = useAtomValue(reauthRequestAtom);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <ReauthPrompt key={pending.id} settle={pending.settle} />
    </Suspense>
  );
}
