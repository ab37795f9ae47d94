import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodKind, MethodsResponse, SessionsResponse } from '@shared/api/auth';
import { methodRemovable } from '@shared/sign-in-methods';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { TelegramLoginButton } from '@/components/telegram-login-button';
import { toApiFailure } from '@/lib/api-errors';
import { useAppConfig } from '@/lib/app-config';
import { refreshCurrentUser } from '@/lib/current-user';
import { formatDateTime, formatLongDate } from '@/lib/date-format';
import { currentLanguage } from '@/lib/i18n';
import { openModal, useModalState } from '@/lib/modal-state';
import { ReauthCancelled, withReauth } from '@/lib/reauth';
import { endSession, getMethods, getSessions, logoutEverywhereElse, removeMethod } from '../api/security-api';
import { addableMethods } from '../state/security-view';

type Method = MethodsResponse['methods'][number];
type Session = SessionsResponse['sessions'][number];

/**
 * The profile's Security section (decisions §13): the account's sign-in methods (remove one with
 * proof; the last way to sign in says so instead of offering Remove, which the server refuses; add a wallet, an e-mail and password, Google,
 * Telegram through its Login Widget, which comes back to /auth/telegram/callback to link)
 * and its sessions (end one, or every one but this device).
 */
export function SecuritySection({ email }: { email: string | null }) {
  const { t } = useTranslation('profile');
  const config = useAppConfig();
  const { open } = useModalState();
  const lang = currentLanguage();
  const [methods, setMethods] = useState<Method[] | null>(null);
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [methodError, setMethodError] = useState<string | null>(null);
  const [sessionError, setSessionError] = useState<string | null>(null);
  const [sessionNote, setSessionNote] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [m, s] = await Promise.all([getMethods(), getSessions()]);
      setMethods(m.methods);
      setSessions(s.sessions);
      setLoadError(null);
    } catch (err) {
      setLoadError(toApiFailure(err, t('errors:requestError')).message);
    }
  }, [t]);

  // Loaded with the page, and again whenever a dialog closes (a method may have been added).
  useEffect(() => {
    if (!open) void load();
  }, [open, load]);

  const remove = async (kind: MethodKind) => {
    setBusy(`method-${kind}`);
    setMethodError(null);
    try {
      await withReauth((proof) => removeMethod(kind, proof));
      await load();
      void refreshCurrentUser();
    } catch (err) {
      if (!(err instanceof ReauthCancelled)) setMethodError(toApiFailure(err, t('security.removeFailed')).message);
    } finally {
      setBusy(null);
    }
  };

  const end = async (id: number) => {
    setBusy(`session-${id}`);
    setSessionError(null);
    setSessionNote(null);
    try {
      await endSession(id);
      setSessionNote(t('security.sessionEnded'));
      await load();
    } catch (err) {
      setSessionError(toApiFailure(err, t('security.endFailed')).message);
    } finally {
      setBusy(null);
    }
  };

  const endOthers = async () => {
    setBusy('others');
    setSessionError(null);
    setSessionNote(null);
    try {
      await logoutEverywhereElse();
      setSessionNote(t('security.othersEnded'));
      await load();
    } catch (err) {
      setSessionError(toApiFailure(err, t('security.endFailed')).message);
    } finally {
      setBusy(null);
    }
  };

  const kinds = methods?.map((m) => m.kind) ?? [];
  const add = methods
    ? addableMethods(kinds, { googleConfigured: Boolean(config?.google_client_id), hasEmail: email !== null })
    : null;
  const linkTelegram = Boolean(config?.telegram) && methods !== null && !methods.some((m) => m.kind === 'telegram');
  const others = sessions?.filter((s) => !s.current).length ?? 0;

  return (
    <section className="profile-card profile-security" aria-labelledby="security-title" id="security">
      <h2 id="security-title">{t('security.title')}</h2>
      {loadError && (
        <p className="profile__error" role="alert">
          {loadError}
        </p>
      )}

      <h3>{t('security.methods')}</h3>
      {methods === null ? (
        !loadError && <Spinner size="md" label={t('security.loading')} />
      ) : (
        <ul className="profile-security__list" data-testid="security-methods">
          {methods.map((m) => (
            <li key={m.kind} className="profile-security__item" data-kind={m.kind}>
              <div className="profile-security__what">
                <strong>{t(`security.kind.${m.kind}`)}</strong>
                <span className="profile-security__label">{m.label}</span>
                {m.added_at && (
                  <span className="profile-security__meta">
                    {t('security.added', { date: formatLongDate(m.added_at, lang) ?? '—' })}
                  </span>
                )}
              </div>
              {methodRemovable(kinds, m.kind) ? (
                <Button
                  variant="ghost"
                  loading={busy === `method-${m.kind}`}
                  disabled={busy !== null}
                  onClick={() => void remove(m.kind)}
                  aria-label={t('security.removeNamed', { method: t(`security.kind.${m.kind}`) })}
                >
                  {t('security.remove')}
                </Button>
              ) : (
                <span className="profile-security__meta" data-testid="only-method">
                  {t('security.onlyMethod')}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {methodError && (
        <p className="profile__error" role="alert">
          {methodError}
        </p>
      )}
      {add && (add.wallet || add.emailPassword || add.google) && (
        <div className="profile__buttons">
          {add.wallet && (
            <Button variant="secondary" onClick={() => openModal('connectWallet')}>
              {t('security.addWallet')}
            </Button>
          )}
          {add.emailPassword && (
            <Button variant="secondary" onClick={() => openModal('addEmailPassword')}>
              {t('security.addEmailPassword')}
            </Button>
          )}
          {add.google && (
            <Button variant="secondary" onClick={() => openModal('linkGoogle')}>
              {t('security.addGoogle')}
            </Button>
          )}
        </div>
      )}

      {linkTelegram && (
        <div className="profile-security__telegram" data-testid="link-telegram">
          <span>{t('security.addTelegram')}</span>
          <TelegramLoginButton label={t('security.addTelegram')} />
        </div>
      )}

      <h3>{t('security.sessions')}</h3>
      {sessions === null ? (
        !loadError && <Spinner size="md" label={t('security.loading')} />
      ) : (
        <ul className="profile-security__list" data-testid="security-sessions">
          {sessions.map((s) => (
            <li key={s.id} className="profile-security__item" data-current={s.current || undefined}>
              <div className="profile-security__what">
                <strong>
                  {s.device || t('security.unknownDevice')}
                  {s.current && <span className="profile-security__badge">{t('security.thisDevice')}</span>}
                </strong>
                {s.address && <span className="profile-security__label">{s.address}</span>}
                <span className="profile-security__meta">
                  {t('security.created', { date: formatDateTime(s.created_at, lang) ?? '—' })}
                </span>
                <span className="profile-security__meta">
                  {t('security.lastUsed', { date: formatDateTime(s.last_used_at, lang) ?? '—' })}
                </span>
              </div>
              {!s.current && (
                <Button
                  variant="ghost"
                  loading={busy === `session-${s.id}`}
                  disabled={busy !== null}
                  onClick={() => void end(s.id)}
                >
                  {t('security.end')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {sessionNote && (
        <p className="profile-security__note" role="status">
          {sessionNote}
        </p>
      )}
      {sessionError && (
        <p className="profile__error" role="alert">
          {sessionError}
        </p>
      )}
      {others > 0 && (
        <div className="profile__buttons">
          <Button
            variant="secondary"
            loading={busy === 'others'}
            disabled={busy !== null}
            onClick={() => void endOthers()}
          >
            {t('security.endOthers')}
          </Button>
        </div>
      )}
    </section>
  );
}
