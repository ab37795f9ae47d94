import { useTranslation } from 'react-i18next';

/** A menu entry that is not available yet: announced as a disabled link (it stays focusable so the
 * "coming soon" hint can be reached from the keyboard), like the locked links of the footer. */
export function DisabledEntry({ label, className = 'nav-entry' }: { label: string; className?: string }) {
  const { t } = useTranslation();
  const hint = t('nav.soon');
  return (
    <span className={`${className} nav-entry--disabled`} role="link" aria-disabled="true" tabIndex={0} title={hint} data-hint={hint}>
      {label}
    </span>
  );
}
