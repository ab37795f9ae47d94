import { useLiveQuery } from '@/lib/live-query';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BetaStatus } from '@shared/api/beta';
import type { PublicConfig } from '@shared/api/config';
import type { CompletedTasks, Follows } from '@shared/api/tasks';
import type { SocialNetwork } from '@shared/tasks';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { toApiFailure } from '@/lib/api-errors';
import { loadAppConfig, useAppConfig } from '@/lib/app-config';
import { refreshCurrentUser, refreshCurrentUserUnlessFresh, useCurrentUser } from '@/lib/current-user';
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

interface TaskDocs {
  completed: CompletedTasks | null;
  beta: BetaStatus | null;
  boosted: string[] | null;
  claimed: Record<string, boolean> | null;
  follows: Follows | null;
  referralCount: number;
}

const DOC_KEYS = ['completed', 'beta', 'boosted', 'claimed', 'follows'] as const;

/**
 * The page's Dexie documents (null when there is none yet) and the active friends, read in one
 * query so the page renders once when they are read instead of once per document. A document
 * written again with the same content (every refresh on open) keeps its object, so what shows it
 * is not rendered again.
 */
function useTaskDocs(): TaskDocs | undefined {
  const read = useLiveQuery(() =>
    db.transaction('r', db.tasks, db.referrals, async () => {
      const [rows, referralCount] = await Promise.all([
        db.tasks.bulkGet(DOC_KEYS.map((key) => TASK_DOCS[key])),
        storedActiveReferralCount(),
      ]);
      const docs = Object.fromEntries(DOC_KEYS.map((key, i) => [key, rows[i]?.value ?? null]));
      return { ...docs, referralCount } as TaskDocs;
    }),
  );
  const previous = useRef<{ docs: TaskDocs; json: Record<string, string> } | null>(null);
  return useMemo(() => {
    if (!read) return read;
    const json = Object.fromEntries(DOC_KEYS.map((key) => [key, JSON.stringify(read[key])]));
    const last = previous.current;
    const docs = last
      ? ({
          ...read,
          ...Object.fromEntries(
            DOC_KEYS.map((key) => [key, json[key] === last.json[key] ? last.docs[key] : read[key]]),
          ),
        } as TaskDocs)
      : read;
    previous.current = { docs, json };
    return docs;
  }, [read]);
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
  const docs = useTaskDocs();
  const completed = docs?.completed;
  const beta = docs?.beta;
  const boosted = docs?.boosted;
  const claimed = docs?.claimed;
  const follows = docs?.follows;
  const config = useAppConfig();
  // Invite quests count active friends only (decisions §12), as the server does.
  const referralCount = docs?.referralCount ?? 0;
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [autoPaid, setAutoPaid] = useState(0);

  /** `opening`: the page has just opened, so a record of the player fetched a moment ago is taken. */
  const load = useCallback(
    async (opening = false) => {
      setLoading(true);
      setLoadError(null);
      const [tasks, , , me] = await Promise.allSettled([
        refreshCompletedTasks(),
        refreshReferrals(),
        refreshBetaStatus(),
        opening ? refreshCurrentUserUnlessFresh() : refreshCurrentUser(),
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
    },
    [t],
  );

  useEffect(() => {
    void load(true);
  }, [load]);
  // The detail belongs to this visit of the page (and to this player).
  useEffect(() => completedTasksState.clearDetail, []);

  // Memoised on what they are made of: the cards below render again only when theirs changed.
  const lists = useMemo(() => questLists(completed, referralCount), [completed, referralCount]);
  const boostedSet = useMemo(() => new Set(boosted ?? []), [boosted]);
  const toBoost = useMemo(
    () => lists.completed.map((v) => v.def.serverTitle).filter((title) => !boostedSet.has(title)),
    [lists, boostedSet],
  );
  const follow = useMemo(
    () => new Map(lists.socialCards.map((v) => [v.def.key, verifiedFollow(config, follows, v.def.network)])),
    [lists, config, follows],
  );
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
          <MemoTakeAllBoosts titles={toBoost} />
          <section className="quest-group" aria-labelledby="account-quests">
            <div className="quest-group__head">
              <h2 id="account-quests">{t('category.user_account_quests')}</h2>
              <MemoCategoryReward
                category="user_account_quests"
                answer={completed}
                markedClaimed={Boolean(claimed?.user_account_quests)}
              />
            </div>
            <ul className="quest-list">
              {lists.account.map((view) => (
                <MemoQuestCard
                  key={view.def.key}
                  view={view}
                  user={user}
                  boosted={boostedSet.has(view.def.serverTitle)}
                />
              ))}
            </ul>
          </section>

          <section className="quest-group" aria-labelledby="social-quests">
            <div className="quest-group__head">
              <h2 id="social-quests">{t('category.social_quests')}</h2>
              <MemoCategoryReward
                category="social_quests"
                answer={completed}
                markedClaimed={Boolean(claimed?.social_quests)}
              />
            </div>
            <ul className="quest-list">
              {lists.socialCards.map((view) => (
                <MemoQuestCard
                  key={view.def.key}
                  view={view}
                  user={user}
                  boosted={boostedSet.has(view.def.serverTitle)}
                  verifiedFollow={follow.get(view.def.key)}
                />
              ))}
              <MemoInviteCard summary={lists.invites} />
            </ul>
          </section>

          <MemoBetaBlock status={beta} />
        </>
      )}
    </div>
  );
}

const MemoQuestCard = memo(QuestCard);
const MemoCategoryReward = memo(CategoryReward);
const MemoInviteCard = memo(InviteCard);
const MemoBetaBlock = memo(BetaBlock);
const MemoTakeAllBoosts = memo(TakeAllBoosts);
