// /auth/telegram/callback: where Telegram's Login Widget sends the browser back with the signed
// fields. Signing in lands on /miner (or the page a guard turned the visitor away from); linking
// lands on the profile's security section. The fields leave the address bar as soon as they are read.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { ReauthCancelled } from '@/lib/reauth';
import { takeReturnTo } from '@/lib/return-to';
import { isSignedIn } from '@/lib/session';
import { completeTelegramLogin, telegramErrorText, telegramLoginFromQuery } from '../lib/telegram-sign-in';
// The placeholder pages' frame (already a chunk of its own): no stylesheet of this page's own.
import '@/components/placeholder-page.css';

const ERROR = { color: 'var(--danger)' } as const;

export function TelegramCallbackPage() {
  const { t } = useTranslation('auth');
  const { search } = useLocation();
  const navigate = useNavigate();
  const [linking] = useState(isSignedIn);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once: the signature is accepted once, and StrictMode runs effects twice.
    if (started.current) return;
    started.current = true;
    const login = telegramLoginFromQuery(search);
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!login) {
      setError(t('telegram.errors.missing'));
      return;
    }
    completeTelegramLogin(login).then(
      (outcome) =>
        void navigate(outcome === 'linked' ? '/profile#security' : (takeReturnTo() ?? '/miner'), { replace: true }),
      (err: unknown) => {
        if (err instanceof ReauthCancelled) void navigate('/profile#security', { replace: true });
        else setError(telegramErrorText(err, t));
      },
    );
  }, [search, navigate, t]);

  return (
    <section className="placeholder-page" aria-labelledby="telegram-callback-title" data-testid="telegram-callback">
      <h1 id="telegram-callback-title">{t(linking ? 'telegram.linkTitle' : 'telegram.signInTitle')}</h1>
      {error ? (
        <>
          <p style={ERROR} role="alert">
            {error}
          </p>
          <Button
            variant="secondary"
            onClick={() => void navigate(linking ? '/profile#security' : '/', { replace: true })}
          >
            {t(linking ? 'telegram.backToProfile' : 'telegram.backToStart')}
          </Button>
        </>
      ) : (
        <>
          <Spinner size="md" />
          <p role="status">{t(linking ? 'telegram.linking' : 'telegram.signingIn')}</p>
        </>
      )}
    </section>
  );
}
