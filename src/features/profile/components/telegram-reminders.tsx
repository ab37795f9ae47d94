// The bot's claim reminders in /profile (decisions §14): an on/off switch for a player with
// Telegram linked, and while the bot has not been started (or was blocked) a link that starts it.
// Nothing is shown without a bot on the server or without Telegram linked.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TelegramReminders as Reminders } from '@shared/api/telegram';
import { toApiFailure } from '@/lib/api-errors';
import { useAppConfig } from '@/lib/app-config';
import { getTelegramReminders, setTelegramReminders } from '../api/telegram-api';
import './telegram-reminders.css';
import '@/components/switch.css';

export function TelegramReminders() {
  const { t } = useTranslation('profile');
  const config = useAppConfig();
  const hasBot = Boolean(config?.telegram);
  const [reminders, setReminders] = useState<Reminders | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!hasBot) return;
    let live = true;
    getTelegramReminders().then(
      (r) => live && setReminders(r),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [hasBot]);

  if (!hasBot || !reminders?.linked) return null;

  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setReminders(await setTelegramReminders(!reminders.enabled));
    } catch (err) {
      setError(toApiFailure(err, t('telegram.failed')).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="profile-card tg-reminders" data-testid="telegram-reminders">
      <h2>{t('telegram.title')}</h2>
      <button
        type="button"
        role="switch"
        aria-checked={reminders.enabled}
        aria-busy={busy || undefined}
        className="tg-switch"
        onClick={() => void toggle()}
      >
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        <span>{t('telegram.switch')}</span>
      </button>
      {!reminders.available && (
        <p className="tg-reminders__start">
          <a
            href={`https://t.me/${encodeURIComponent(reminders.bot_username)}?start=hi`}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('telegram.startBot')}
          </a>
        </p>
      )}
      {error && (
        <p className="profile__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
