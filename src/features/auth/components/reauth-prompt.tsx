import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { walletReauthText } from '@shared/wallet-texts';
import type { MethodKind } from '@shared/api/auth';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { PasswordField } from '@/components/password-field';
import { Spinner } from '@/components/spinner';
import { toApiFailure } from '@/lib/api-errors';
import { loadAppConfig, useAppConfig } from '@/lib/app-config';
import { useCurrentUser } from '@/lib/current-user';
import { launchInitData } from '@/lib/telegram-launch';
import { findProvider, isUserRejection, signText } from '@/lib/wallet';
import { getMethods, reauthenticate } from '../api/auth-api';
import { requestGoogleAccessToken } from '../lib/google';
import { googleErrorText } from '../lib/google-error';
import { reauthChoices } from '../lib/reauth-choices';
import './auth-modals.css';

interface Props {
  /** The reauth string, or null when the player closes the prompt. */
  settle: (reauth: string | null) => void;
}

/**
 * "Confirm it is you" (decisions §13), opened over the dialog whose change the server refused with
 * 403 reauth_required (lib/reauth.ts): it offers the proofs this account has — its password, a
 * signature of its wallet, its Google account — and hands back a single-use reauth string.
 */
export default function ReauthPrompt({ settle }: Props) {
  const { t } = useTranslation('auth');
  const user = useCurrentUser();
  const config = useAppConfig();
  const [kinds, setKinds] = useState<MethodKind[] | null>(null);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState<'password' | 'wallet' | 'google' | 'telegram' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    getMethods()
      .then((r) => alive && setKinds(r.methods.map((m) => m.kind)))
      // Without the list, offer what the player record tells.
      .catch(
        () =>
          alive &&
          setKinds([
            ...(user?.password_set ? ['password' as const] : []),
            ...(user?.wallet_address ? ['wallet' as const] : []),
          ]),
      );
    return () => {
      alive = false;
    };
    // The list is read once per prompt.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const initData = launchInitData();
  const choices = reauthChoices(kinds ?? [], Boolean(config?.google_client_id), initData !== undefined);

  const done = (reauth: string) => settle(reauth);

  const fail = (err: unknown) => {
    const f = toApiFailure(err, t('errors:auth.reauth'));
    if (f.code === 'invalid_password' || f.fields.some((e) => e.field === 'password'))
      setPasswordError(t('reauth.passwordWrong'));
    else setError(f.code === 'busy' ? t('errors:busy') : f.message);
  };

  const byPassword = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (!password) {
      setPasswordError(t('reauth.passwordRequired'));
      return;
    }
    setBusy('password');
    setError(null);
    setPasswordError(null);
    try {
      done((await reauthenticate({ password })).reauth);
    } catch (err) {
      fail(err);
      setBusy(null);
    }
  };

  const byWallet = async () => {
    setBusy('wallet');
    setError(null);
    try {
      const provider = await findProvider();
      if (!provider) {
        setError(t('reauth.noWallet'));
        setBusy(null);
        return;
      }
      const { app_name } = await loadAppConfig();
      const timestamp = Date.now();
      const { address, signature } = await signText(provider, walletReauthText(app_name, timestamp));
      done((await reauthenticate({ address, signature, timestamp })).reauth);
    } catch (err) {
      if (isUserRejection(err)) setError(t('reauth.walletRejected'));
      else fail(err);
      setBusy(null);
    }
  };

  const byGoogle = async () => {
    const clientId = config?.google_client_id;
    if (!clientId) return;
    setBusy('google');
    setError(null);
    try {
      const accessToken = await requestGoogleAccessToken(clientId);
      done((await reauthenticate({ access_token: accessToken })).reauth);
    } catch (err) {
      setError(googleErrorText(err, t));
      setBusy(null);
    }
  };

  const byTelegram = async () => {
    if (!initData) return;
    setBusy('telegram');
    setError(null);
    try {
      done((await reauthenticate({ init_data: initData })).reauth);
    } catch (err) {
      // Each launch's data proves once (the sign-in may have spent it): a reopened app brings new data.
      if (toApiFailure(err, '').code === 'telegram_data_used') setError(t('reauth.telegramReopen'));
      else fail(err);
      setBusy(null);
    }
  };

  return (
    <Modal
      title={t('reauth.title')}
      description={t('reauth.text')}
      onClose={() => settle(null)}
      className="auth-reauth"
    >
      {kinds === null ? (
        <Spinner size="md" label={t('reauth.loading')} />
      ) : (
        <>
          {choices.password && (
            <form onSubmit={byPassword} noValidate>
              <PasswordField
                label={t('fields.currentPassword')}
                autoComplete="current-password"
                value={password}
                onChange={(e) => {
                  setPassword(e.target.value);
                  setPasswordError(null);
                }}
                error={passwordError}
                data-autofocus
              />
              <div className="modal-actions">
                <Button type="submit" block loading={busy === 'password'} disabled={busy !== null}>
                  {t('reauth.confirm')}
                </Button>
              </div>
            </form>
          )}
          <div className="modal-actions">
            {choices.wallet && (
              <Button
                block
                variant={choices.password ? 'ghost' : 'primary'}
                loading={busy === 'wallet'}
                disabled={busy !== null}
                onClick={() => void byWallet()}
              >
                {t('reauth.wallet')}
              </Button>
            )}
            {choices.telegram && (
              <Button
                block
                variant={choices.password || choices.wallet ? 'ghost' : 'primary'}
                loading={busy === 'telegram'}
                disabled={busy !== null}
                onClick={() => void byTelegram()}
              >
                {t('reauth.telegram')}
              </Button>
            )}
            {choices.google && (
              <Button
                block
                variant="ghost"
                loading={busy === 'google'}
                disabled={busy !== null}
                onClick={() => void byGoogle()}
              >
                {t('reauth.google')}
              </Button>
            )}
          </div>
          {!choices.password && !choices.wallet && !choices.google && !choices.telegram && (
            <p className="modal-note">{t('reauth.none')}</p>
          )}
          {error && (
            <p className="modal-error" role="alert">
              {error}
            </p>
          )}
        </>
      )}
    </Modal>
  );
}
