// One line of the 2x temporary boost stock (duration, count owned, selected badge) with the
// caller's action: on the boost page it opens the boost dialog, in the dialog it uses the boost.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TEMP_BOOST_VALUE } from '@shared/constants';
import type { TempBoostStock } from '../state/mining-data';

export function TempBoostRow({ row, testId, children }: { row: TempBoostStock; testId: string; children: ReactNode }) {
  const { t } = useTranslation('mining');
  return (
    <li className="mining-boost-row" data-testid={testId}>
      <span className="mining-boost-row__icon" aria-hidden="true">
        {t('boostSelect.multiplier', { value: TEMP_BOOST_VALUE })}
      </span>
      <span className="mining-boost-row__name">{t('boostSelect.hours', { hours: row.hours })}</span>
      <span className="mining-boost-row__count">
        {t('boostSelect.owned', { count: row.ids.length })}
        {row.selected > 0 && (
          <span className="mining-badge mining-badge--selected">
            {t('boostSelect.selected', { count: row.selected })}
          </span>
        )}
      </span>
      {children}
    </li>
  );
}
