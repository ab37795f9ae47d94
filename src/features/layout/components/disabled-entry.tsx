import { useTranslation } from 'react-i18next';

/** A menu entry that is not available yet: announced as disabled, with a "coming soon" hint. */
export function DisabledEntry({ label, className = 'nav-entry' }: { label: string; className?: string }) {
  const { t } = useTranslation();
  const hint = t('nav.soon');
  return (
    <span className={`${className} nav-entry--disabled`} aria-disabled="true" tabIndex={0} title={hint} data-hint={hint}>
      {label}
    </span>
  );
}
