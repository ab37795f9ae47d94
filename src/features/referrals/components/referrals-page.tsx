import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFERRAL_BOOST_PERCENT } from '@shared/constants';
import { ReferralBoostHint } from '@/components/referral-boost-hint';
import { toApiFailure } from '@/lib/api-errors';
import { useCurrentUser } from '@/lib/current-user';
import { fetchWaitingReferralBoosts } from '@/lib/referral-boosts';
import { isActiveReferral, refreshReferrals, storedReferrals } from '@/lib/referrals';
import { listFailureText } from '../state/awards';
import { AwardsTable } from './awards-table';
import { ReferralLink } from './referral-link';
import { ReferralList } from './referral-list';
import './referrals.css';

/** /referrals: the link to share, the awards and the list of referrals (spec §3, §8). */
export function ReferralsPage() {
  const { t } = useTranslation('referrals');
  const user = useCurrentUser();
  const rows = useLiveQuery(storedReferrals);
  // Only active friends count toward the awards (decisions §12); the list shows everyone.
  const activeCount = rows?.filter(isActiveReferral).length ?? 0;
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [waitingBoosts, setWaitingBoosts] = useState(0);

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    // The boosts waiting on /boost are a hint: failing to learn them changes nothing else here.
    fetchWaitingReferralBoosts().then(setWaitingBoosts, () => setWaitingBoosts(0));
    try {
      await refreshReferrals();
    } catch (err) {
      setError(listFailureText(toApiFailure(err, t('list.failed')), t('list.failed')));
    } finally {
      setLoading(false);
    }
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="referrals">
      <header className="referrals__head">
        <h1>{t('title')}</h1>
        <p>{t('lead')}</p>
        <div className="referrals__stats">
          <p className="referrals__stat">
            <span>{t('count')}</span>
            <strong data-testid="referral-count">{activeCount}</strong>
          </p>
          <p className="referrals__stat">
            <span>{t('balance')}</span>
            <strong data-testid="coin-balance">{user?.balance ?? 0}</strong>
          </p>
        </div>
      </header>
      <ReferralBoostHint waiting={waitingBoosts} percent={REFERRAL_BOOST_PERCENT} />
      <ReferralLink link={user?.referral_link || undefined} />
      <div className="referrals__grid">
        <AwardsTable referralCount={activeCount} />
        <ReferralList rows={rows} loading={loading} error={error} onRetry={() => void load()} />
      </div>
    </div>
  );
}
