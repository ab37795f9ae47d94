import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { toApiFailure } from '@/lib/api-errors';
import { markBoosted, rewardTaskBoost } from '../api/tasks-api';
import { taskBoostCode, taskBoostFailureText } from '../state/task-text';

/**
 * "Boost mining" for a completed task: POST mining/reward-task-boost/ {task_title} adds the task's
 * permanent mining boost once. The boost list does not say which task a boost came from, so the
 * boosted titles are remembered locally (and an 'already received' answer counts as boosted).
 */
export function TaskBoostButton({ taskTitle, boosted }: { taskTitle: string; boosted: boolean }) {
  const { t } = useTranslation('tasks');
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const boost = async () => {
    setBusy(true);
    setLine(null);
    try {
      const answer = await rewardTaskBoost(taskTitle);
      await markBoosted(taskTitle);
      setLine({ kind: 'ok', text: t('boost.received', { total: answer.task_total_boost }) });
    } catch (err) {
      const failure = toApiFailure(err, t('boost.failed'));
      const code = taskBoostCode(failure);
      if (code === 'boost_already_received') await markBoosted(taskTitle);
      setLine({
        kind: 'error',
        text: code ? t(`boost.errors.${code}`) : taskBoostFailureText(failure, t('boost.failed')),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {boosted ? (
        <span className="quest__boosted">{t('boost.active')}</span>
      ) : (
        <Button variant="secondary" loading={busy} onClick={() => void boost()}>
          {t('boost.button')}
        </Button>
      )}
      {line && (
        <span
          className={`quest__boost-line quest__line--${line.kind}`}
          role={line.kind === 'error' ? 'alert' : 'status'}
        >
          {line.text}
        </span>
      )}
    </>
  );
}
