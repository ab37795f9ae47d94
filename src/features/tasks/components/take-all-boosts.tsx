import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TASK_BOOST_PERCENT } from '@shared/constants';
import { Button } from '@/components/button';
import { toApiFailure } from '@/lib/api-errors';
import { markBoosted, rewardTaskBoost } from '../api/tasks-api';
import { taskBoostCode } from '../state/task-text';

/**
 * One press for every task boost earned (issue 16) instead of a BOOST MINING press per done
 * quest. A boost received elsewhere ('already received') counts as taken.
 */
export function TakeAllBoosts({ titles }: { titles: string[] }) {
  const { t } = useTranslation('tasks');
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const takeAll = async () => {
    setBusy(true);
    setLine(null);
    let added = 0;
    let total: number | null = null;
    let failed = false;
    for (const title of titles) {
      try {
        const answer = await rewardTaskBoost(title);
        added += 1;
        total = answer.task_total_boost;
        await markBoosted(title);
      } catch (err) {
        if (taskBoostCode(toApiFailure(err, '')) === 'boost_already_received') await markBoosted(title);
        else failed = true;
      }
    }
    if (added > 0)
      setLine({ kind: 'ok', text: t('boostAll.received', { percent: added * TASK_BOOST_PERCENT, total }) });
    else if (failed) setLine({ kind: 'error', text: t('boost.failed') });
    setBusy(false);
  };

  if (titles.length === 0 && !line) return null;
  return (
    <div className="quests__boost-all" data-testid="boost-all">
      {titles.length > 0 && (
        <Button loading={busy} onClick={() => void takeAll()}>
          {t('boostAll.button', { percent: titles.length * TASK_BOOST_PERCENT })}
        </Button>
      )}
      {line && (
        <p className={`quest__line quest__line--${line.kind}`} role={line.kind === 'error' ? 'alert' : 'status'}>
          {line.text}
        </p>
      )}
    </div>
  );
}
