import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { useAppConfig } from '@/lib/app-config';
import { refreshCurrentUser } from '@/lib/current-user';
import { closeModal } from '@/lib/modal-state';
import { requestReauth } from '@/lib/reauth-request';
import { linkGoogle } from '../api/auth-api';
import { loadGoogleScript, requestGoogleAccessToken, requestGoogleCode } from '../lib/google';
import { googleErrorText } from '../lib/google-error';

/**
 * Link Google to the signed-in account (decisions §13). Proof comes first (the reauth prompt), then
 * a tap opens Google's popup — a popup opened after an await would be blocked — and POST
 * /auth/google/ goes with the bearer and the reauth string.
 */
export default function LinkGoogleModal() {
  const { t } = useTranslation('auth');
  const config = useAppConfig();
  const clientId = config?.google_client_id ?? null;
  const [reauth, setReauth] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [linked, setLinked] = useState(false);

  useEffect(() => {
    if (clientId) loadGoogleScript().catch(() => undefined);
  }, [clientId]);

  const prove = async () => {
    setError(null);
    const r = await requestReauth();
    if (r) setReauth(r);
  };

  const link = async () => {
    if (!clientId || !reauth) return;
    setBusy(true);
    setError(null);
    try {
      const google = config?.google_code_flow
        ? { code: await requestGoogleCode(clientId) }
        : { access_token: await requestGoogleAccessToken(clientId) };
      await linkGoogle(google, reauth);
      setLinked(true);
      void refreshCurrentUser();
    } catch (err) {
      setError(googleErrorText(err, t));
      // A reauth string is single use: a refused call may have spent it.
      setReauth(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={t('linkGoogle.title')} description={linked ? undefined : t('linkGoogle.text')} onClose={closeModal}>
      {linked ? (
        <p className="modal-note" role="status">
          {t('linkGoogle.done')}
        </p>
      ) : !clientId ? (
        <p className="modal-note">{t('linkGoogle.unavailable')}</p>
      ) : null}
      <div className="modal-actions">
        {linked || !clientId ? (
          <Button block onClick={closeModal} data-autofocus>
            {t('linkGoogle.ok')}
          </Button>
        ) : reauth ? (
          <Button block loading={busy} onClick={() => void link()} data-autofocus>
            {t('social.google')}
          </Button>
        ) : (
          <Button block onClick={() => void prove()} data-autofocus>
            {t('linkGoogle.prove')}
          </Button>
        )}
      </div>
      {error && (
        <p className="modal-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
