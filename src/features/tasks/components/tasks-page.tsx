import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BetaStatus } from '@shared/api/beta';
import type { CompletedTasks } from '@shared/api/tasks';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser, useCurrentUser } from '@/lib/current-user';
import { db } from '@/lib/db';
import { refreshReferrals, storedActiveReferralCount } from '@/lib/referrals';
import { refreshBetaStatus, refreshCompletedTasks, TASK_DOCS } from '../api/tasks-api';
import { questLists } from '../state/quest-list';
import { BetaBlock } from './beta-block';
import { CategoryReward } from './category-reward';
import { completedTasksState } from '../state/completed-task-detail';
import { QuestCard } from './quest-card';
import './tasks.css';

/** A Dexie `tasks` document, null when there is none yet (undefined while reading). */
function useTaskDoc<T>(key: string): T | null | undefined {
  return useLiveQuery(async () => ((await db.tasks.get(key))?.value as T | undefined) ?? null, [key]);
}

/** /tasks: the account and social quests, their category rewards and the beta test (spec §3, §4). */
export function TasksPage() {
  const { t } = useTranslation('tasks');
  const user = useCurrentUser();
  const completed = useTaskDoc<CompletedTasks>(TASK_DOCS.completed);
  const beta = useTaskDoc<BetaStatus>(TASK_DOCS.beta);
  const boosted = useTaskDoc<string[]>(TASK_DOCS.boosted);
  const claimed = useTaskDoc<Record<string, boolean>>(TASK_DOCS.claimed);
  // Invite quests count active friends only (decisions §12), as the server does.
  const referralCount = useLiveQuery(storedActiveReferralCount) ?? 0;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  const load = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    const [tasks] = await Promise.allSettled([refreshCompletedTasks(), refreshReferrals(), refreshBetaStatus(), refreshCurrentUser()]);
    if (tasks.status === 'rejected') setLoadError(toApiFailure(tasks.reason, t('errors.loadFailed')).message);
    setLoading(false);
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);
  // The detail belongs to this visit of the page (and to this player).
  useEffect(() => completedTasksState.clearDetail, []);

  const lists = questLists(completed, referralCount);
  const boostedSet = new Set(boosted ?? []);
  const firstLoad = loading && !completed;

  return (
    <div className="quests">
      <header className="quests__head">
        <div>
          <h1>{t('title')}</h1>
          <p className="quests__lead">{t('lead')}</p>
        </div>
        <p className="quests__balance">
          <span className="quests__balance-label">{t('balance')}</span>
          <span className="quests__balance-value" data-testid="coin-balance">{user?.balance ?? 0}</span>
        </p>
      </header>

      {loadError && (
        <div className="quests__error" role="alert">
          <span>{completed ? t('errors.stale', { message: loadError }) : loadError}</span>
          <Button variant="ghost" onClick={() => void load()}>
            {t('errors.retry')}
          </Button>
        </div>
      )}

      {firstLoad ? (
        <div className="quests__loading">
          <Spinner size="lg" label={t('loading')} />
        </div>
      ) : (
        <>
          <section className="quest-group" aria-labelledby="account-quests">
            <div className="quest-group__head">
              <h2 id="account-quests">{t('category.user_account_quests')}</h2>
              <CategoryReward category="user_account_quests" answer={completed} markedClaimed={Boolean(claimed?.user_account_quests)} />
            </div>
            <ul className="quest-list">
              {lists.account.map((view) => (
                <QuestCard key={view.def.key} view={view} user={user} boosted={boostedSet.has(view.def.serverTitle)} />
              ))}
            </ul>
          </section>

          <section className="quest-group" aria-labelledby="social-quests">
            <div className="quest-group__head">
              <h2 id="social-quests">{t('category.social_quests')}</h2>
              <CategoryReward category="social_quests" answer={completed} markedClaimed={Boolean(claimed?.social_quests)} />
            </div>
            <ul className="quest-list">
              {lists.social.map((view) => (
                <QuestCard key={view.def.key} view={view} user={user} boosted={boostedSet.has(view.def.serverTitle)} />
              ))}
            </ul>
          </section>

          <BetaBlock status={beta} />
        </>
      )}
    </div>
  );
}
