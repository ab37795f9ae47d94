import { useLiveQuery } from '@/lib/live-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFERRAL_BOOST_PERCENT } from '@shared/constants';
import { ReferralBoostHint } from '@/components/referral-boost-hint';
import { useCurrentUser } from '@/lib/current-user';
import { fetchWaitingReferralBoosts } from '@/lib/referral-boosts';
import { isActiveReferral, refreshReferrals, storedReferrals } from '@/lib/referrals';
import { fetchReferral } from '../api/referrals-api';
import { referralsState } from '../state/referrals-state';
import { AwardsTable } from './awards-table';
import { ReferralDetail } from './referral-detail';
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
  const { list } = useAtomValue(referralsState.atom);
  const load = () => void referralsState.loadList(refreshReferrals);
  const [waitingBoosts, setWaitingBoosts] = useState(0);

  useEffect(() => {
    void referralsState.loadList(refreshReferrals);
    // The boosts waiting on /boost are a hint: failing to learn them changes nothing else here.
    fetchWaitingReferralBoosts().then(setWaitingBoosts, () => setWaitingBoosts(0));
    // The detail belongs to this visit of the page (and to this player).
    return referralsState.clearDetail;
  }, []);

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
        <ReferralList
          rows={rows}
          loading={list.loading || rows === undefined}
          error={list.error}
          onRetry={load}
          onOpen={(id) => void referralsState.loadDetail(id, fetchReferral)}
        />
      </div>
      <ReferralDetail />
    </div>
  );
}
