// Telegram's Login Widget button (lib/telegram-login.ts), shown only while the server has a bot
// (public config `telegram`). Shared: the sign-in dialog, the profile's "Link Telegram" and the
// tasks' "link Telegram" step all use it; the callback page decides between signing in and linking.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfig } from '@/lib/app-config';
import { currentLanguage } from '@/lib/i18n';
import { mountTelegramLogin } from '@/lib/telegram-login';

// Inline rather than a stylesheet: one chunk fewer in the first visit's preload map. Telegram
// draws its own button in an iframe; the slot keeps a main action's height while it loads.
const BOX = { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4 } as const;
const SLOT = {
  display: 'flex',
  justifyContent: 'center',
  alignItems: 'center',
  minHeight: 44,
  maxWidth: '100%',
} as const;
const ERROR = { margin: 0, color: 'var(--danger)', fontSize: 14, textAlign: 'center' } as const;

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
    <div className="telegram-login" style={BOX} data-testid="telegram-login">
      <div ref={slot} style={SLOT} role="group" aria-label={label ?? t('telegram.button')} data-bot={botUsername} />
      {failed && (
        <p style={ERROR} role="alert">
          {t('telegram.widgetFailed')}
        </p>
      )}
    </div>
  );
}
