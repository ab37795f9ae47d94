// The claim as a moment (issue 16): the amount counts up into the balance while the rig plays a
// short burst, then the new rate and what the next session will pay. Screen readers get the final
// figures once (the counting digits are hidden from them); reduced motion shows them at once.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPxt } from '@/lib/format-pxt';
import { formatRate } from '../lib/format';
import { useCountUp } from '../state/count-up';

export interface Reward {
  amount: number;
  /** The balance the amount counts into: the server's after the claim, as the header shows it. */
  balanceAfter: number;
  /** Queued offline and paid when the connection came back. */
  sentOffline?: boolean;
}

export function RewardMoment({ reward, rate, nextPays }: { reward: Reward; rate: number; nextPays: number }) {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  const { balanceAfter } = reward;
  const amount = useCountUp(0, reward.amount);
  const balance = useCountUp(Math.max(0, balanceAfter - reward.amount), balanceAfter);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, [reward]);

  return (
    <div ref={ref} tabIndex={-1} className="reward-moment" data-testid="reward-moment">
      <p className="visually-hidden" role="status">
        {t('reward.said', {
          amount: formatPxt(reward.amount, lang),
          balance: formatPxt(balanceAfter, lang),
          rate: formatRate(rate, lang),
          next: formatPxt(nextPays, lang),
        })}
      </p>
      {reward.sentOffline && (
        <p className="reward-moment__offline" data-testid="reward-offline">
          {t('reward.sentOffline')}
        </p>
      )}
      <div aria-hidden="true">
        <p className="reward-moment__amount" data-testid="reward-amount">
          {t('miner.claimed', { amount: formatPxt(amount, lang) })}
        </p>
        <dl className="reward-moment__figures">
          <div>
            <dt>{t('reward.balance')}</dt>
            <dd data-testid="reward-balance">{t('pxt', { amount: formatPxt(balance, lang) })}</dd>
          </div>
          <div>
            <dt>{t('reward.rate')}</dt>
            <dd data-testid="reward-rate">{t('rate.perHour', { rate: formatRate(rate, lang) })}</dd>
          </div>
          <div>
            <dt>{t('reward.next')}</dt>
            <dd data-testid="reward-next">{t('pxt', { amount: formatPxt(nextPays, lang) })}</dd>
          </div>
        </dl>
      </div>
    </div>
  );
}
