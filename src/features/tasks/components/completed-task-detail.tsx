import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { currentLanguage } from '@/lib/i18n';
import { completedTasksState } from '../state/completed-task-detail';

/** When and for how much a quest was completed, as the server recorded it; shown in its card. */
export function CompletedTaskDetail({ id }: { id: number }) {
  const { t } = useTranslation('tasks');
  const { detail, detailId } = useAtomValue(completedTasksState.atom);
  if (detailId !== String(id)) return null;
  const item = detail.data;
  const date = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <div className="quest__detail" data-testid="completed-task-detail" aria-busy={detail.loading || undefined}>
      {detail.loading && <Spinner size="sm" label={t('detail.loading')} />}
      {detail.error && <p role="alert">{detail.error}</p>}
      {item && !detail.loading && (
        <p>{t('detail.text', { date: date.format(new Date(item.completed_at)), coins: item.reward })}</p>
      )}
      <Button variant="link" onClick={completedTasksState.clearDetail}>
        {t('detail.close')}
      </Button>
    </div>
  );
}
