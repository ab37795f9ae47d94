// /boost: task and referral boosts with their counts and totals (GET /mining/boosts/), where to get
// more, claiming referral boosts (GET /mining/reward-referral-boost/), and the 2x temporary boosts
// with a Use button (the boost select dialog).
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  REFERRAL_BOOST_CAP_PERCENT,
  REFERRAL_BOOST_PERCENT,
  TASK_BOOST_PERCENT,
  TEMP_BOOST_HOURS,
  TEMP_BOOST_VALUE,
} from '@shared/constants';
import { ratePerHour } from '@shared/mining-math';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { openModal } from '@/lib/modal-state';
import { rewardReferralBoost } from '../api/mining-api';
import { formatRate } from '../lib/format';
import { miningFailure } from '../lib/mining-errors';
import { useOnline, useRefreshAfterReplay } from '../state/hooks';
import {
  queuedBoostUses,
  refreshBoosts,
  tempBoostStock,
  useBoostRows,
  useBoostSummary,
  useOutboxRows,
} from '../state/mining-data';
import { NoticeLine, type Notice } from './notice-line';
import { MiningPageHead, MiningPageNotices } from './mining-page-head';
import { TempBoostRow } from './temp-boost-row';
import './mining.css';

export function BoostPage() {
  const { t, i18n } = useTranslation('mining');
  const summary = useBoostSummary();
  const rows = useBoostRows();
  const outbox = useOutboxRows();
  const online = useOnline();
  const [loadError, setLoadError] = useState<string | null>(null);
  const [claiming, setClaiming] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  useEffect(() => {
    document.title = `${t('boosts.title')} · ${t('common:appTitle')}`;
  }, [t]);

  const load = useCallback(async () => {
    try {
      await refreshBoosts();
      setLoadError(null);
    } catch (err) {
      const f = miningFailure(err, 'boosts', t);
      setLoadError(f.network ? null : f.text);
    }
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);
  useRefreshAfterReplay(load);

  const claimReferrals = async () => {
    setClaiming(true);
    setNotice(null);
    try {
      const r = await rewardReferralBoost();
      setNotice({
        kind: 'ok',
        text: t('boosts.referrals.claimed', { added: r.added, percent: r.referral_total_boost }),
      });
      await load();
    } catch (err) {
      setNotice({ kind: 'error', text: miningFailure(err, 'referralBoost', t).text });
    } finally {
      setClaiming(false);
    }
  };

  // The same stock the boost dialog offers: minus the uses waiting in the outbox.
  const stock = tempBoostStock(rows ?? [], TEMP_BOOST_HOURS, queuedBoostUses(outbox));
  // Offered only when it can succeed (issue 16); otherwise the card says how a boost is earned.
  const waiting = summary?.referral_waiting ?? 0;
  const total = (summary?.task_total_boost ?? 0) + (summary?.referral_total_boost ?? 0);

  return (
    <div className="mining-page">
      <MiningPageHead
        kicker={t('boosts.kicker')}
        title={t('boosts.title')}
        lead={t('boosts.lead', { percent: total, rate: formatRate(ratePerHour(total), i18n.language) })}
        actions={
          <Link className="btn btn--ghost" to="/miner">
            {t('shop.toMiner')}
          </Link>
        }
      />
      <MiningPageNotices errors={loadError ? [loadError] : []} outbox={outbox} />

      {summary === undefined ? (
        <div className="mining-page--loading">
          <Spinner size="lg" label={t('miner.loading')} />
        </div>
      ) : (
        <div className="mining-grid mining-grid--boosts">
          <section className="mining-card" aria-labelledby="boost-tasks-title">
            <h2 id="boost-tasks-title" className="mining-card__title">
              {t('boosts.tasks.title')}
            </h2>
            <p className="mining-big" data-testid="task-boost-total">
              {t('boosts.percent', { percent: summary?.task_total_boost ?? 0 })}
            </p>
            <p className="mining-hint">{t('boosts.count', { count: summary?.task_count ?? 0 })}</p>
            <p>{t('boosts.tasks.text', { percent: TASK_BOOST_PERCENT })}</p>
            <Link className="btn btn--ghost" to="/tasks">
              {t('boosts.tasks.more')}
            </Link>
          </section>

          <section className="mining-card" aria-labelledby="boost-referrals-title">
            <h2 id="boost-referrals-title" className="mining-card__title">
              {t('boosts.referrals.title')}
            </h2>
            <p className="mining-big" data-testid="referral-boost-total">
              {t('boosts.percent', { percent: summary?.referral_total_boost ?? 0 })}
            </p>
            <p className="mining-hint">{t('boosts.count', { count: summary?.referral_count ?? 0 })}</p>
            <p>{t('boosts.referrals.text', { percent: REFERRAL_BOOST_PERCENT, cap: REFERRAL_BOOST_CAP_PERCENT })}</p>
            <p className="mining-hint" data-testid="referral-boost-waiting">
              {waiting > 0
                ? t('boosts.referrals.waiting', { count: waiting, percent: waiting * REFERRAL_BOOST_PERCENT })
                : (summary?.referral_count ?? 0) > 0
                  ? // Issue 24: right after a claim the card says it is all claimed, not "nothing to claim yet".
                    t('boosts.referrals.allClaimed')
                  : t('boosts.referrals.noneWaiting')}
            </p>
            <div className="mining-card__actions">
              <Button onClick={claimReferrals} loading={claiming} disabled={!online || waiting === 0}>
                {t('boosts.referrals.claim')}
              </Button>
              <Link className="btn btn--ghost" to="/referrals">
                {t('boosts.referrals.more')}
              </Link>
            </div>
            <NoticeLine notice={notice} />
          </section>

          <section className="mining-card mining-card--wide" aria-labelledby="boost-temp-title">
            <h2 id="boost-temp-title" className="mining-card__title">
              {t('boosts.temporary.title', { value: TEMP_BOOST_VALUE })}
            </h2>
            <p>{t('boosts.temporary.text', { value: TEMP_BOOST_VALUE })}</p>
            <ul className="mining-boost-list mining-boost-list--inline">
              {stock.map((row) => (
                <TempBoostRow key={row.hours} row={row} testId={`temp-boost-${row.hours}`}>
                  <Button
                    variant="secondary"
                    onClick={() => openModal('boostSelect')}
                    disabled={row.ids.length === 0}
                    aria-label={t('boostSelect.useLabel', { hours: row.hours })}
                  >
                    {t('boostSelect.use')}
                  </Button>
                </TempBoostRow>
              ))}
            </ul>
            <Link className="mining-link" to="/mining">
              {t('boostSelect.getMore')}
            </Link>
          </section>
        </div>
      )}
    </div>
  );
}
