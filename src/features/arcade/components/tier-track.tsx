import { useTranslation } from 'react-i18next';
import type { SeasonJson, TierRewardJson } from '@shared/api/arcade';
import { TEMP_BOOST_VALUE } from '@shared/constants';
import { Button } from '@/components/button';
import { RewardIcon } from './reward-icon';

type Tier = SeasonJson['tiers'][number];

interface Props {
  tiers: Tier[];
  /** The tier being worked on (highlighted), or null when every tier is reached. */
  nextTier: number | null;
  /** Tiers whose claim waits in the offline outbox. */
  pending: Set<number>;
  claiming: number | null;
  onClaim: (tier: number) => void;
}

/** The 30 tiers with their free reward and state: locked, claimable (with Claim) or claimed. */
export function TierTrack({ tiers, nextTier, pending, claiming, onClaim }: Props) {
  return (
    <ol className="tier-track">
      {tiers.map((tier) => (
        <TierCard
          key={tier.tier}
          tier={tier}
          next={tier.tier === nextTier}
          pending={pending.has(tier.tier)}
          claiming={claiming}
          onClaim={onClaim}
        />
      ))}
    </ol>
  );
}

interface CardProps {
  tier: Tier;
  next: boolean;
  pending: boolean;
  claiming: number | null;
  onClaim: (tier: number) => void;
}

function TierCard({ tier, next, pending, claiming, onClaim }: CardProps) {
  const { t } = useTranslation('arcade');
  const state = tier.claimed ? 'claimed' : tier.claimable ? (pending ? 'pending' : 'claimable') : 'locked';
  return (
    <li
      className={`tier tier--${state}${next ? ' tier--next' : ''}`}
      data-testid={`tier-${tier.tier}`}
      data-state={state}
    >
      <div className="tier__head">
        <h3 className="tier__name">{t('tiers.name', { tier: tier.tier })}</h3>
        <span className="tier__xp">{t('tiers.xp', { xp: tier.xp_required })}</span>
      </div>
      <div className={`tier__reward tier__reward--${tier.reward.kind}`}>
        <RewardIcon kind={tier.reward.kind} />
        <RewardText reward={tier.reward} />
      </div>
      <div className="tier__foot">
        {state === 'claimed' && (
          <span className="tier__badge tier__badge--claimed">
            <span aria-hidden="true">✓ </span>
            {t('tiers.claimed')}
          </span>
        )}
        {state === 'pending' && <span className="tier__badge tier__badge--pending">{t('tiers.pending')}</span>}
        {state === 'claimable' && (
          <Button
            className="tier__claim"
            variant="secondary"
            block
            loading={claiming === tier.tier}
            disabled={claiming !== null && claiming !== tier.tier}
            aria-label={t('tiers.claimTier', { tier: tier.tier })}
            onClick={() => onClaim(tier.tier)}
          >
            {t('tiers.claim')}
          </Button>
        )}
        {state === 'locked' && (
          <span className="tier__badge tier__badge--locked">
            <span className="tier__lock" aria-hidden="true" />
            {next ? t('tiers.inProgress') : t('tiers.locked')}
          </span>
        )}
      </div>
    </li>
  );
}

function RewardText({ reward }: { reward: TierRewardJson }) {
  const { t } = useTranslation('arcade');
  switch (reward.kind) {
    case 'coins':
      return (
        <span className="tier__reward-text">
          <span className="tier__reward-kind">{t('reward.coins')}</span>
          <span className="tier__reward-value">{t('reward.amount', { amount: reward.amount })}</span>
        </span>
      );
    case 'boost':
      return (
        <span className="tier__reward-text">
          <span className="tier__reward-kind">{t('reward.boost', { value: TEMP_BOOST_VALUE })}</span>
          <span className="tier__reward-value">{t('reward.hours', { hours: reward.hours })}</span>
        </span>
      );
    case 'gems':
      return (
        <span className="tier__reward-text">
          <span className="tier__reward-kind">{t('reward.gems')}</span>
          <span className="tier__reward-value">{t('reward.amount', { amount: reward.amount })}</span>
        </span>
      );
  }
}
