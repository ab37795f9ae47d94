import { useTranslation } from 'react-i18next';
import type { BetaStatus } from '@shared/api/beta';
import { BETA_REQUIRED_TASKS } from '@shared/constants';
import { Button } from '@/components/button';
import { openModal } from '@/lib/modal-state';

/** The beta test (spec §3 beta state): progress over the 9 required quests, what is missing, apply. */
export function BetaBlock({ status }: { status: BetaStatus | null | undefined }) {
  const { t } = useTranslation('tasks');
  const total = status?.total_required_tasks ?? BETA_REQUIRED_TASKS;
  const done = status?.completed_tasks ?? 0;
  const applied = Boolean(status?.applied || status?.has_access);
  const eligible = Boolean(status?.is_eligible);

  return (
    <section className="beta" aria-labelledby="beta-title">
      <div className="beta__head">
        <h2 id="beta-title">{t('beta.title')}</h2>
        <p>{t('beta.text')}</p>
      </div>
      <div className="quest__progress beta__progress">
        <progress max={total} value={done} aria-label={t('beta.progress', { count: done, total })} />
        <span>{t('beta.progress', { count: done, total })}</span>
      </div>
      {applied ? (
        <p className="beta__applied" role="status">
          {t('beta.applied')}
        </p>
      ) : (
        <>
          {status && status.missing_tasks.length > 0 && (
            <div className="beta__missing">
              <p>{t('beta.missing')}</p>
              <ul>
                {status.missing_tasks.map((key) => (
                  <li key={key}>{t(`quest.${key}.title`)}</li>
                ))}
              </ul>
            </div>
          )}
          <Button disabled={!eligible} aria-disabled={!eligible || undefined} onClick={() => openModal('betaTest')}>
            {t('beta.apply')}
          </Button>
          {!eligible && <p className="beta__hint">{t('beta.notEligible')}</p>}
        </>
      )}
    </section>
  );
}
