// Telegram's Login Widget button (lib/telegram-login.ts), shown only while the server has a bot
// (public config `telegram`). Shared: the sign-in dialog, the profile's "Link Telegram" and the
// tasks' "link Telegram" step all use it; the callback page decides between signing in and linking.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '@/lib/app-config';
import { currentLanguage } from '@/lib/i18n';
import { mountTelegramLogin } from '@/lib/telegram-login';
import './telegram-login-button.css';

export function TelegramLoginButton({ label }: { label?: string }) {
  const { t } = useTranslation('auth');
  const config = useAppConfig();
  const botUsername = config?.telegram?.bot_username ?? null;
  const slot = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const lang = currentLanguage();

  useEffect(() => {
    if (!botUsername || !slot.current) return;
    setFailed(false);
    return mountTelegramLogin(slot.current, { botUsername, lang, onError: () => setFailed(true) });
  }, [botUsername, lang]);

  if (!botUsername) return null;
  return (
    <div className="telegram-login" data-testid="telegram-login">
      <div
        ref={slot}
        className="telegram-login__widget"
        role="group"
        aria-label={label ?? t('telegram.button')}
        data-bot={botUsername}
      />
      {failed && (
        <p className="telegram-login__error" role="alert">
          {t('telegram.widgetFailed')}
        </p>
      )}
    </div>
  );
}
