// The Game and Account entries of spec §2, listed once: the narrow header menu shows them as nav
// links, the player menu as plain links in its two groups.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DisabledEntry } from './disabled-entry';
import { NavEntry } from './nav-entry';

interface EntriesProps {
  /** Class of each entry ('nav-entry' in the header, 'menu-entry' in the player menu). */
  className: string;
  /** NavEntry (marks the current page) instead of a plain Link. */
  nav?: boolean;
}

export function GameEntries({ className, nav }: EntriesProps) {
  const { t } = useTranslation();
  const To = nav ? NavEntry : Link;
  return (
    <>
      <To className={className} to="/arcade">
        {t('nav.arcade')}
      </To>
      <DisabledEntry className={className} label={t('nav.leaderboard')} />
      <DisabledEntry className={className} label={t('nav.auction')} />
    </>
  );
}

const ACCOUNT_PAGES = [
  ['/profile', 'nav.profile'],
  ['/tasks', 'nav.tasks'],
  ['/referrals', 'nav.referrals'],
] as const;

export function AccountEntries({ className, nav, ico }: EntriesProps & { ico: boolean }) {
  const { t } = useTranslation();
  const To = nav ? NavEntry : Link;
  return (
    <>
      {ACCOUNT_PAGES.map(([to, key]) => (
        <To key={to} className={className} to={to}>
          {t(key)}
        </To>
      ))}
      {ico && (
        <To className={className} to="/ico">
          {t('nav.ico')}
        </To>
      )}
    </>
  );
}
