// The quest calls of spec §7 (Tasks, the beta application, the task boost). Answers the page shows
// are written to Dexie `tasks` (documents by key) and read back with useLiveQuery.
import type { BetaApplicationRequest, BetaApplicationResponse, BetaStatus } from '@shared/api/beta';
import type { DiscordLinkRequest, DiscordLinkResponse, DiscordStart } from '@shared/api/discord';
import type { RewardTaskBoostResponse } from '@shared/api/mining';
import type {
  CategoryReward,
  CompletedTaskItem,
  CompletedTasks,
  Follows,
  QuestReward,
  SocialRewardResponse,
} from '@shared/api/tasks';
import type { TaskCategory } from '@shared/task-messages';
import type { SocialNetwork } from '@shared/tasks';
import { api } from '@/lib/api-client';
import { db } from '@/lib/db';

/** Keys of the documents this feature keeps in Dexie `tasks`. */
export const TASK_DOCS = {
  completed: 'completed',
  beta: 'beta',
  /** Server titles whose mining boost was received (the boost list does not name its task). */
  boosted: 'boosted',
  /** Categories an 'already claimed' answer marked claimed. */
  claimed: 'claimed',
  /** Which accounts the verified follows are checked with are linked (GET /tasks/follows/). */
  follows: 'follows',
} as const;

const put = (key: string, value: unknown) => db.tasks.put({ key, value, fetchedAt: Date.now() });

/** The account quest checks: each pays its quest once when its condition holds. */
export const ACCOUNT_CHECK_PATHS: Record<string, string> = {
  add_nickname: 'check-username/',
  connect_wallet: 'check-wallet/',
  add_email_password: 'check-email-password/',
};

export const checkAccountQuest = (questKey: string) => {
  const path = ACCOUNT_CHECK_PATHS[questKey];
  if (!path) throw new Error(`no check for quest ${questKey}`);
  return api<QuestReward>(path);
};

export const rewardSocial = (network: SocialNetwork) =>
  api<SocialRewardResponse>('tasks/social-media-reward/', { method: 'POST', body: { network } });

/** Verified follows (decisions §14): whether Telegram and Discord are linked, for the cards' steps. */
export async function refreshFollows(): Promise<Follows> {
  const answer = await api<Follows>('tasks/follows/');
  await put(TASK_DOCS.follows, answer);
  return answer;
}

/** The address of Discord's consent page for this player (with its single-use `state`). */
export const startDiscord = () => api<DiscordStart>('auth/discord/start/');

export const linkDiscord = (body: DiscordLinkRequest) =>
  api<DiscordLinkResponse>('auth/discord/', { method: 'POST', body: { ...body } });

export async function refreshCompletedTasks(): Promise<CompletedTasks> {
  const answer = await api<CompletedTasks>('tasks/completed/');
  await put(TASK_DOCS.completed, answer);
  return answer;
}

/** One completed task of the player (spec §7 GET /tasks/completed/{id}/). */
export const fetchCompletedTask = (id: string) => api<CompletedTaskItem>(`tasks/completed/${encodeURIComponent(id)}/`);

const CATEGORY_PATHS: Record<TaskCategory, string> = {
  user_account_quests: 'tasks/reward-user-account/',
  social_quests: 'tasks/reward-social/',
};

export const rewardCategory = (category: TaskCategory) => api<CategoryReward>(CATEGORY_PATHS[category]);

export async function markCategoryClaimed(category: TaskCategory): Promise<void> {
  await db.transaction('rw', db.tasks, async () => {
    const doc = await db.tasks.get(TASK_DOCS.claimed);
    const value = { ...((doc?.value as Record<string, boolean> | undefined) ?? {}), [category]: true };
    await put(TASK_DOCS.claimed, value);
  });
}

export const rewardTaskBoost = (taskTitle: string) =>
  api<RewardTaskBoostResponse>('mining/reward-task-boost/', { method: 'POST', body: { task_title: taskTitle } });

export async function markBoosted(taskTitle: string): Promise<void> {
  await db.transaction('rw', db.tasks, async () => {
    const doc = await db.tasks.get(TASK_DOCS.boosted);
    const titles = new Set((doc?.value as string[] | undefined) ?? []);
    titles.add(taskTitle);
    await put(TASK_DOCS.boosted, [...titles]);
  });
}

export async function refreshBetaStatus(): Promise<BetaStatus> {
  const status = await api<BetaStatus>('beta/status/');
  await put(TASK_DOCS.beta, status);
  return status;
}

export const applyForBeta = (body: BetaApplicationRequest) =>
  api<BetaApplicationResponse>('apply-for-beta/', { method: 'POST', body: { ...body } });
