import { useTranslation } from 'react-i18next';
import type { TierProgress } from '../lib/season-progress';

/** Progress inside the tier being worked on: "tier n of 30" and the XP of this tier. */
export function XpBar({ progress, xp }: { progress: TierProgress; xp: number }) {
  const { t } = useTranslation('arcade');
  const { tier, tiers, xpInTier, xpPerTier, xpToNext, percent, nextTier, maxed } = progress;
  return (
    <div className="xp">
      <div className="xp__top">
        <p className="xp__tier">{t('xp.tierOf', { tier, tiers })}</p>
        <p className="xp__total">{t('xp.total', { xp })}</p>
      </div>
      <div
        className="xp__bar"
        role="progressbar"
        aria-label={maxed ? t('xp.barLabelMaxed') : t('xp.barLabel', { tier: nextTier })}
        aria-valuemin={0}
        aria-valuemax={xpPerTier}
        aria-valuenow={xpInTier}
        aria-valuetext={t('xp.valueText', { xp: xpInTier, max: xpPerTier })}
      >
        <span className="xp__fill" style={{ width: `${percent}%` }} />
        <span className="xp__ticks" aria-hidden="true" />
      </div>
      <p className="xp__caption">
        {maxed ? t('xp.maxed') : t('xp.toNext', { xp: xpInTier, max: xpPerTier, left: xpToNext, tier: nextTier })}
      </p>
    </div>
  );
}
