// A friend's +10 % waits on /boost until claimed, and nothing else pointed there (issue 16): this
// line says so wherever the player looks at friends or mining, and links to the claim.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function ReferralBoostHint({ waiting, percent }: { waiting: number; percent: number }) {
  const { t } = useTranslation();
  if (waiting <= 0) return null;
  return (
    <p className="referral-boost-hint" role="status" data-testid="referral-boost-hint">
      {t('referralBoostHint.text', { count: waiting, percent: waiting * percent })}{' '}
      <Link to="/boost">{t('referralBoostHint.link')}</Link>
    </p>
  );
}
