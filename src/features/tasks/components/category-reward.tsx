import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompletedTasks } from '@shared/api/tasks';
import { CATEGORY_REWARD_COINS } from '@shared/constants';
import type { TaskCategory } from '@shared/task-messages';
import { Button } from '@/components/button';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { currentLanguage } from '@/lib/i18n';
import { markCategoryClaimed, refreshCompletedTasks, rewardCategory } from '../api/tasks-api';
import { CATEGORY_TARGET, categoryClaimed, categoryCount, categoryReady } from '../state/category-rewards';
import { isAlreadyClaimed, taskAnswerText, taskFailureText } from '../state/task-text';

interface Props {
  category: TaskCategory;
  answer: CompletedTasks | null | undefined;
  markedClaimed: boolean;
}

/** A category's 100-coin reward (spec §4): progress, then a claim button, then "claimed". */
export function CategoryReward({ category, answer, markedClaimed }: Props) {
  const { t } = useTranslation('tasks');
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const claimed = categoryClaimed(answer, category, markedClaimed);
  const ready = categoryReady(answer, category);
  const count = categoryCount(answer, category);
  const lang = currentLanguage();

  const claim = async () => {
    setBusy(true);
    setLine(null);
    try {
      const reward = await rewardCategory(category);
      setLine({ kind: 'ok', text: taskAnswerText(lang, reward) });
      await Promise.allSettled([refreshCompletedTasks(), refreshCurrentUser()]);
    } catch (err) {
      const failure = toApiFailure(err, t('errors.requestFailed'));
      if (isAlreadyClaimed(failure)) await markCategoryClaimed(category);
      setLine({ kind: 'error', text: taskFailureText(lang, failure, t('errors.requestFailed')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={`category-reward${claimed ? ' category-reward--claimed' : ''}`} data-category={category}>
      <div className="category-reward__text">
        <p className="category-reward__title">{t('category.reward', { coins: CATEGORY_REWARD_COINS })}</p>
        <p className="category-reward__count">
          {t(`category.progress.${category}`, {
            count: Math.min(count, CATEGORY_TARGET[category]),
            target: CATEGORY_TARGET[category],
          })}
        </p>
      </div>
      {claimed ? (
        <span className="quest__done">{t('category.claimed')}</span>
      ) : (
        <Button loading={busy} disabled={!ready} aria-disabled={!ready || undefined} onClick={() => void claim()}>
          {t(`category.claim.${category}`)}
        </Button>
      )}
      {line && (
        <p
          className={`category-reward__line quest__line--${line.kind}`}
          role={line.kind === 'error' ? 'alert' : 'status'}
        >
          {line.text}
        </p>
      )}
    </div>
  );
}
