import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BetaStatus } from '@shared/api/beta';
import type { PublicConfig } from '@shared/api/config';
import type { CompletedTasks, Follows } from '@shared/api/tasks';
import type { SocialNetwork } from '@shared/tasks';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { toApiFailure } from '@/lib/api-errors';
import { loadAppConfig, useAppConfig } from '@/lib/app-config';
import { refreshCurrentUser, useCurrentUser } from '@/lib/current-user';
import { db } from '@/lib/db';
import { refreshReferrals, storedActiveReferralCount } from '@/lib/referrals';
import {
  checkAccountQuest,
  refreshBetaStatus,
  refreshCompletedTasks,
  refreshFollows,
  TASK_DOCS,
} from '../api/tasks-api';
import { completedTitles, metAccountQuests, questLists } from '../state/quest-list';
import { BetaBlock } from './beta-block';
import { CategoryReward } from './category-reward';
import { completedTasksState } from '../state/completed-task-detail';
import { InviteCard } from './invite-card';
import { QuestCard } from './quest-card';
import { TakeAllBoosts } from './take-all-boosts';
import './tasks.css';

/** A Dexie `tasks` document, null when there is none yet (undefined while reading). */
function useTaskDoc<T>(key: string): T | null | undefined {
  return useLiveQuery(async () => ((await db.tasks.get(key))?.value as T | undefined) ?? null, [key]);
}

const anyVerified = (config: PublicConfig) => Object.values(config.verified_follows).some(Boolean);

/** The follow card's steps when the server checks that follow (decisions §14), else undefined. */
function verifiedFollow(config: PublicConfig | null, follows: Follows | null | undefined, network?: SocialNetwork) {
  if (!config || !network || !config.verified_follows[network]) return undefined;
  const linked = network === 'discord' ? follows?.discord_linked : follows?.telegram_linked;
  return { linked };
}

/** /tasks: the account and social quests, their category rewards and the beta test (spec §3, §4). */
export function TasksPage() {
  const { t } = useTranslation('tasks');
  const user = useCurrentUser();
  const completed = useTaskDoc<CompletedTasks>(TASK_DOCS.completed);
  const beta = useTaskDoc<BetaStatus>(TASK_DOCS.beta);
  const boosted = useTaskDoc<string[]>(TASK_DOCS.boosted);
  const claimed = useTaskDoc<Record<string, boolean>>(TASK_DOCS.claimed);
  const follows = useTaskDoc<Follows>(TASK_DOCS.follows);
  const config = useAppConfig();
  // Invite quests count active friends only (decisions §12), as the server does.
  const referralCount = useLiveQuery(storedActiveReferralCount) ?? 0;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [autoPaid, setAutoPaid] = useState(0);

  const load = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    const [tasks, , , me] = await Promise.allSettled([
      refreshCompletedTasks(),
      refreshReferrals(),
      refreshBetaStatus(),
      refreshCurrentUser(),
      loadAppConfig().then((c) => (anyVerified(c) ? refreshFollows() : null)),
    ]);
    if (tasks.status === 'rejected') setLoadError(toApiFailure(tasks.reason, t('errors.loadFailed')).message);
    // Quests already met are checked here, not by a CHECK press (issue 16); a refusal leaves the
    // quest's own button for the player.
    if (tasks.status === 'fulfilled' && me.status === 'fulfilled') {
      let paid = 0;
      for (const key of metAccountQuests(me.value, completedTitles(tasks.value))) {
        paid += await checkAccountQuest(key).then(
          (r) => r.reward ?? 0,
          () => 0,
        );
      }
      if (paid > 0) {
        await Promise.allSettled([refreshCompletedTasks(), refreshBetaStatus(), refreshCurrentUser()]);
        setAutoPaid((p) => p + paid);
      }
    }
    setLoading(false);
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);
  // The detail belongs to this visit of the page (and to this player).
  useEffect(() => completedTasksState.clearDetail, []);

  const lists = questLists(completed, referralCount);
  const boostedSet = new Set(boosted ?? []);
  const toBoost = lists.completed.map((v) => v.def.serverTitle).filter((title) => !boostedSet.has(title));
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
          <span className="quests__balance-value" data-testid="coin-balance">
            {user?.balance ?? 0}
          </span>
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
          {autoPaid > 0 && (
            <p className="quests__auto" role="status" data-testid="quests-auto">
              {t('autoChecked', { coins: autoPaid })}
            </p>
          )}
          <TakeAllBoosts titles={toBoost} />
          <section className="quest-group" aria-labelledby="account-quests">
            <div className="quest-group__head">
              <h2 id="account-quests">{t('category.user_account_quests')}</h2>
              <CategoryReward
                category="user_account_quests"
                answer={completed}
                markedClaimed={Boolean(claimed?.user_account_quests)}
              />
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
              <CategoryReward
                category="social_quests"
                answer={completed}
                markedClaimed={Boolean(claimed?.social_quests)}
              />
            </div>
            <ul className="quest-list">
              {lists.socialCards.map((view) => (
                <QuestCard
                  key={view.def.key}
                  view={view}
                  user={user}
                  boosted={boostedSet.has(view.def.serverTitle)}
                  verifiedFollow={verifiedFollow(config, follows, view.def.network)}
                />
              ))}
              <InviteCard summary={lists.invites} />
            </ul>
          </section>

          <BetaBlock status={beta} />
        </>
      )}
    </div>
  );
}
