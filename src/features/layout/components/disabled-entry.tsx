import { useTranslation } from 'react-i18next';

/** A menu entry that is not available yet: announced as a disabled link that says "soon" on screen
 * (no hover needed), and left out of the Tab order since it leads nowhere (issue 16). */
export function DisabledEntry({ label, className = 'nav-entry' }: { label: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`${className} nav-entry--disabled`} role="link" aria-disabled="true" title={t('nav.soon')}>
      {label} <span className="nav-entry__soon">{t('nav.soonShort')}</span>
    </span>
  );
}
