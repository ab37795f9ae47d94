import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { useAppConfig } from '@/lib/app-config';
import { closeModal } from '@/lib/modal-state';
import { loadGoogleScript } from '../lib/google';
import { googleErrorText } from '../lib/google-error';
import { signInWithGoogle } from '../lib/google-sign-in';

/**
 * "Continue with Google": hidden when the server has no Google client id (spec §2 config). Its
 * error line sits under the button, so it shows in whichever dialog holds it (main login, Login).
 */
export function SocialButton() {
  const { t } = useTranslation('auth');
  const config = useAppConfig();
  const clientId = config?.google_client_id ?? null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (clientId) loadGoogleScript().catch(() => undefined);
  }, [clientId]);

  if (!clientId) return null;

  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      await signInWithGoogle(clientId, config?.google_code_flow === true);
      closeModal();
    } catch (err) {
      setError(googleErrorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button block variant="ghost" loading={busy} onClick={onClick} icon={<GoogleMark />}>
        {t('social.google')}
      </Button>
      {error && (
        <p className="modal-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 8 8" shapeRendering="crispEdges" aria-hidden="true">
      <path fill="#ea4335" d="M2 0h4v1H2zM1 1h1v1H1zM6 1h1v1H6z" />
      <path fill="#fbbc05" d="M0 2h1v4H0z" />
      <path fill="#34a853" d="M1 6h1v1H1zM2 7h4v1H2zM6 6h1v1H6z" />
      <path fill="#4285f4" d="M7 3h1v3H7zM4 3h3v1H4z" />
    </svg>
  );
}
