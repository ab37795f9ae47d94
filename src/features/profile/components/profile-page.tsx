import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUserUnlessFresh, useCurrentUser, userFetchFailedAtom } from '@/lib/current-user';
import { formatGems } from '@/lib/format-pxt';
import { currentLanguage } from '@/lib/i18n';
import { openModal } from '@/lib/modal-state';
import { signedInAtom } from '@/lib/session';
import { requestPasswordChange } from '../api/profile-api';
import { profileView } from '../state/profile-view';
import { useWalletQuestReward } from '../state/wallet-quest';
import { SecuritySection } from './security-section';
import { TelegramReminders } from './telegram-reminders';
import './profile.css';

/** /profile (public): the player's account, or a sign-in prompt for visitors. */
export function ProfilePage() {
  const signedIn = useAtomValue(signedInAtom);
  return signedIn ? <PlayerProfile /> : <VisitorPrompt />;
}

function VisitorPrompt() {
  const { t } = useTranslation('profile');
  return (
    <section className="profile profile--visitor" aria-labelledby="profile-title">
      <h1 id="profile-title">{t('title')}</h1>
      <p>{t('visitor.text')}</p>
      <Button onClick={() => openModal('main')}>{t('visitor.signIn')}</Button>
    </section>
  );
}

function PlayerProfile() {
  const { t } = useTranslation('profile');
  const user = useCurrentUser();
  const fetchFailed = useAtomValue(userFetchFailedAtom);
  const [busy, setBusy] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const walletQuestCoins = useWalletQuestReward(user === undefined ? undefined : (user?.wallet_address ?? null));

  useEffect(() => {
    void refreshCurrentUserUnlessFresh();
  }, []);

  if (!user) {
    return (
      <section className="profile" aria-labelledby="profile-title" aria-busy="true">
        <h1 id="profile-title">{t('title')}</h1>
        {fetchFailed ? (
          <p className="profile__error" role="alert">
            {t('errors:requestError')}
          </p>
        ) : (
          <Spinner size="lg" label={t('loading')} />
        )}
      </section>
    );
  }

  const view = profileView(user, currentLanguage());

  const changePassword = async () => {
    setBusy(true);
    setPasswordError(null);
    try {
      await requestPasswordChange();
      openModal('updatePasswordNotification');
    } catch (err) {
      setPasswordError(toApiFailure(err, t('errors:auth.changePasswordRequest')).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="profile" aria-labelledby="profile-title">
      <h1 id="profile-title">{t('title')}</h1>
      {fetchFailed && (
        <p className="profile__error" role="alert">
          {t('errors:requestError')}
        </p>
      )}

      <div className="profile__grid">
        <div className="profile-card">
          <h2>{t('account.title')}</h2>
          <dl className="profile__facts">
            <div>
              <dt>{t('account.username')}</dt>
              <dd data-testid="profile-username">{view.username ?? t('account.noUsername')}</dd>
            </div>
            <div>
              <dt>{t('account.email')}</dt>
              <dd data-testid="profile-email">{view.email ?? t('account.noEmail')}</dd>
            </div>
            <div>
              <dt>{t('account.wallet')}</dt>
              <dd data-testid="profile-wallet" title={user.wallet_address || undefined}>
                {view.wallet ?? t('common:header.walletNotLinked')}
              </dd>
            </div>
          </dl>
        </div>

        <div className="profile-card">
          <h2>{t('balances.title')}</h2>
          <dl className="profile__balances">
            <div>
              <dt>{t('balances.coins')}</dt>
              <dd data-testid="profile-coins">{formatGems(view.coins, currentLanguage())}</dd>
            </div>
            <div>
              <dt>{t('balances.pxt')}</dt>
              <dd data-testid="profile-pxt">{view.pxt}</dd>
            </div>
            <div>
              <dt>{t('balances.gems')}</dt>
              <dd data-testid="profile-gems">{formatGems(view.gems, currentLanguage())}</dd>
            </div>
          </dl>
          <p className="profile__links">
            <Link to="/tasks">{t('links.tasks')}</Link>
            <Link to="/referrals">{t('links.referrals')}</Link>
          </p>
        </div>
      </div>

      <div className="profile-card profile__actions">
        <h2>{t('actions.title')}</h2>
        {view.needsPassword && (
          <div className="profile__no-password" data-testid="profile-no-password">
            <p>{t('actions.noPassword')}</p>
            <Button loading={busy} onClick={() => void changePassword()}>
              {t('actions.setPassword')}
            </Button>
          </div>
        )}
        <div className="profile__buttons">
          <Button variant="ghost" onClick={() => openModal('updateUsername')}>
            {t('actions.username')}
          </Button>
          {view.canChangeEmail && (
            <Button variant="ghost" onClick={() => openModal('updateEmail')}>
              {t('actions.email')}
            </Button>
          )}
          {view.canChangePassword && (
            <Button variant="ghost" loading={busy} onClick={() => void changePassword()}>
              {t('actions.password')}
            </Button>
          )}
          {view.canAddEmailPassword && (
            <Button variant="secondary" onClick={() => openModal('addEmailPassword')}>
              {t('actions.addEmailPassword')}
            </Button>
          )}
          {view.canLinkWallet && (
            <Button variant="secondary" onClick={() => openModal('connectWallet')}>
              {t('actions.linkWallet')}
            </Button>
          )}
        </div>
        {passwordError && (
          <p className="profile__error" role="alert">
            {passwordError}
          </p>
        )}
        {walletQuestCoins !== null && (
          <p className="profile__ok" role="status" data-testid="wallet-quest-paid">
            {t('actions.walletQuestPaid', { coins: walletQuestCoins })}
          </p>
        )}
      </div>

      <TelegramReminders />

      <SecuritySection email={view.email} />
    </section>
  );
}
