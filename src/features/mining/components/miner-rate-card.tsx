// The miner's rate card: the rate now, its parts (base, tasks, friends, the temporary boost) and the
// ways to boost it. Memoised: the page re-renders every second for the countdown, this card only
// when its figures change.
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BASE_RATE_PER_HOUR } from '@shared/constants';
import type { MiningSession, SessionBoost } from '@shared/api/mining';
import { Button } from '@/components/button';
import { openModal } from '@/lib/modal-state';
import { formatRate, formatTime } from '../lib/format';
import type { MinerStatus } from '../lib/session-view';
import type { BoostSummary, TempBoostStock } from '../state/mining-data';

export const MinerRateCard = memo(function MinerRateCard({
  rate,
  summary,
  boost,
  selected,
  status,
  session,
}: {
  rate: number;
  summary: BoostSummary | null;
  boost: SessionBoost | null;
  /** Temporary boosts selected for the next session. */
  selected: readonly TempBoostStock[];
  status: MinerStatus;
  session: MiningSession | null;
}) {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  return (
    <section className="mining-card mining-rate" aria-labelledby="mining-rate-title">
      <h2 id="mining-rate-title" className="mining-card__title">
        {t('rate.title')}
      </h2>
      <p className="mining-rate__now" data-testid="current-rate">
        {t('rate.perHour', { rate: formatRate(rate, lang) })}
      </p>
      <dl className="mining-breakdown">
        <div>
          <dt>{t('rate.base')}</dt>
          <dd>{t('rate.perHour', { rate: formatRate(BASE_RATE_PER_HOUR, lang) })}</dd>
        </div>
        <div>
          <dt>{t('rate.tasks')}</dt>
          <dd>
            {t('rate.percentCount', { percent: summary?.task_total_boost ?? 0, count: summary?.task_count ?? 0 })}
          </dd>
        </div>
        <div>
          <dt>{t('rate.referrals')}</dt>
          <dd>
            {t('rate.percentCount', {
              percent: summary?.referral_total_boost ?? 0,
              count: summary?.referral_count ?? 0,
            })}
          </dd>
        </div>
        <div>
          <dt>{t('rate.temporary')}</dt>
          <dd data-testid="temporary-boost-state" className={boost || selected.length ? 'mining-on' : undefined}>
            {boost
              ? t('rate.temporaryActive', { time: formatTime(boost.ends_at, lang) })
              : selected.length && status === 'idle'
                ? t('rate.temporarySelected', {
                    hours: selected.map((row) => t('boostSelect.hours', { hours: row.hours })).join(', '),
                  })
                : t('rate.temporaryNone')}
          </dd>
        </div>
      </dl>
      {session && status === 'running' && (
        <p className="mining-hint">{t('rate.fixed', { percent: session.boost_percent })}</p>
      )}
      <div className="mining-card__actions">
        <Button variant="secondary" onClick={() => openModal('boostSelect')}>
          {t('rate.useBoost')}
        </Button>
        <Link className="btn btn--ghost" to="/boost">
          {t('rate.manage')}
        </Link>
      </div>
    </section>
  );
});
