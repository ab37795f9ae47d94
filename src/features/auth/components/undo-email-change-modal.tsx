import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { toApiFailure } from '@/lib/api-errors';
import { closeModal, openModal, useModalState } from '@/lib/modal-state';
import { isSignedIn, signOut } from '@/lib/session';
import { undoEmailChange } from '../api/auth-api';

type Outcome = { state: 'working' } | { state: 'done'; email: string } | { state: 'failed'; message: string };

const applied = new Map<string, Promise<string>>();
/** One call per link even if the modal mounts twice (the token is single use). */
function applyOnce(token: string): Promise<string> {
  let run = applied.get(token);
  if (!run) {
    run = undoEmailChange(token).then((r) => r.email);
    applied.set(token, run);
  }
  return run;
}

/**
 * The link mailed to the old address after an e-mail change (decisions §12): applies the undo and
 * says what happened. Every session of the account was signed out, this browser's too.
 */
export default function UndoEmailChangeModal() {
  const { t } = useTranslation('auth');
  const { params } = useModalState();
  const token = params.token ?? '';
  const [outcome, setOutcome] = useState<Outcome>({ state: 'working' });

  useEffect(() => {
    let live = true;
    applyOnce(token).then(
      async (email) => {
        if (isSignedIn()) {
          // The server revoked every refresh token; forget ours so the next step is a clean
          // sign-in. Signing out closes every modal: this one opens again with the same answer.
          await signOut();
          openModal('undoEmailChange', { token });
          return;
        }
        if (live) setOutcome({ state: 'done', email });
      },
      (err: unknown) => {
        const f = toApiFailure(err, t('undoEmailChange.failed'));
        if (live)
          setOutcome({
            state: 'failed',
            message:
              f.code === 'invalid_token'
                ? t('undoEmailChange.invalid')
                : f.code === 'email_in_use'
                  ? t('undoEmailChange.inUse')
                  : f.message,
          });
      },
    );
    return () => {
      live = false;
    };
  }, [token, t]);

  return (
    <Modal title={t('undoEmailChange.title')} onClose={closeModal}>
      {outcome.state === 'working' && (
        <p className="modal-note" role="status">
          {t('undoEmailChange.working')}
        </p>
      )}
      {outcome.state === 'done' && (
        <p className="modal-note" role="status">
          {t('undoEmailChange.done', { email: outcome.email })}
        </p>
      )}
      {outcome.state === 'failed' && (
        <p className="modal-error" role="alert">
          {outcome.message}
        </p>
      )}
      <div className="modal-actions">
        <Button block onClick={closeModal} disabled={outcome.state === 'working'}>
          {t('undoEmailChange.ok')}
        </Button>
      </div>
    </Modal>
  );
}
