// The claim-reminder switch (decisions §6), offered on the miner page once the player has mined:
// on → permission, subscription with the server's key, POST /push/subscribe/; off → unsubscribe on
// both sides. Hiding the card is remembered.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentSubscription, disablePush, enablePush } from '../lib/push-subscription';
import { useCardTurn } from '../state/card-turn';
import '@/components/switch.css';

const HIDDEN_KEY = 'pxt.pushCardHidden';
const readHidden = () => {
  try {
    return localStorage.getItem(HIDDEN_KEY) === '1';
  } catch {
    return false;
  }
};

type Note = null | 'denied' | 'failed';

export function PushCard() {
  const { t } = useTranslation('pwa');
  const [hidden, setHidden] = useState(readHidden);
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(Notification.permission === 'denied' ? 'denied' : null);
  const turn = useCardTurn('push', !hidden);

  useEffect(() => {
    let live = true;
    currentSubscription()
      .then((sub) => live && setOn(sub !== null && Notification.permission === 'granted'))
      .catch(() => live && setOn(false));
    return () => {
      live = false;
    };
  }, []);

  if (!turn) return null;
  const blocked = note === 'denied';
  // Drawn at its full size with the page it comes with, before this browser's subscription is read
  // (a card that fills in afterwards would push the page down: layout shift, issue 14).
  const unknown = on === null;

  const toggle = async () => {
    if (busy || blocked || unknown) return;
    setBusy(true);
    setNote(null);
    try {
      if (on) {
        await disablePush();
        setOn(false);
      } else {
        const result = await enablePush();
        setOn(result === 'subscribed');
        if (result === 'denied') setNote('denied');
      }
    } catch (err) {
      console.warn('Claim reminders could not be changed', err);
      setNote('failed');
      setOn((await currentSubscription().catch(() => null)) !== null);
    } finally {
      setBusy(false);
    }
  };

  const hide = () => {
    try {
      localStorage.setItem(HIDDEN_KEY, '1');
    } catch {
      /* private mode: hidden for this page only */
    }
    setHidden(true);
  };

  return (
    <section className="pwa-card pwa-card--push" aria-label={t('push.title')}>
      <div className="pwa-card__row">
        <button
          type="button"
          role="switch"
          aria-checked={on ?? false}
          aria-disabled={blocked || busy || unknown || undefined}
          aria-busy={busy || unknown || undefined}
          className="pwa-switch"
          onClick={() => void toggle()}
        >
          <span className="switch__track" aria-hidden="true">
            <span className="switch__thumb" />
          </span>
          <span className="pwa-switch__label">{t('push.switch')}</span>
        </button>
        <button type="button" className="pwa-card__close" onClick={hide} aria-label={t('push.hide')}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {note && (
        <p className="pwa-card__note" role="alert">
          {t(note === 'denied' ? 'push.denied' : 'push.failed')}
        </p>
      )}
    </section>
  );
}
