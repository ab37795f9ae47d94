// Quests: account checks, social follows, completed tasks, category rewards (decisions §7).
// Answers carry the Russian text of shared/task-messages.ts in `detail` and its stable `code`.
import { z } from 'zod';
import { SOCIAL_NETWORKS, type SocialNetwork } from '../tasks';
import { TASK_CATEGORIES, TASK_MESSAGE_CODES } from '../task-messages';

const messageCode = z.enum(TASK_MESSAGE_CODES);
const category = z.enum(TASK_CATEGORIES as [string, ...string[]]);

/** Answer of GET /check-username/, /check-wallet/, /check-email-password/ when the quest pays. */
export const questRewardSchema = z.object({
  detail: z.string(),
  code: messageCode,
  /** Coins paid now. */
  reward: z.number().int(),
  /** The coin balance after the payment. */
  balance: z.number().int(),
});
export type QuestReward = z.infer<typeof questRewardSchema>;

export const socialRewardRequestSchema = z.object({
  network: z.enum(SOCIAL_NETWORKS as [SocialNetwork, ...SocialNetwork[]]),
});
export type SocialRewardRequest = z.infer<typeof socialRewardRequestSchema>;

/** Answer of POST /tasks/social-media-reward/: every social follow the player has been paid. */
export const socialRewardResponseSchema = z.object({
  detail: z.string(),
  code: messageCode,
  rewards: z.array(
    z.object({ network: z.enum(SOCIAL_NETWORKS as [SocialNetwork, ...SocialNetwork[]]), reward: z.number().int() }),
  ),
});
export type SocialRewardResponse = z.infer<typeof socialRewardResponseSchema>;

/**
 * GET /tasks/follows/: whether the accounts the verified follows are checked with are linked
 * (decisions §14). `discord_linked` is false while Discord must be connected again (token expired).
 * Which follows are checked at all is the public config's `verified_follows`.
 */
export const followsSchema = z.object({ telegram_linked: z.boolean(), discord_linked: z.boolean() });
export type Follows = z.infer<typeof followsSchema>;

export const completedTaskSchema = z.object({
  id: z.number().int(),
  /** The Russian server title of shared/tasks.ts. */
  task_title: z.string(),
  completed_at: z.string(),
  reward: z.number().int(),
});
export type CompletedTaskItem = z.infer<typeof completedTaskSchema>;

export const completedTasksSchema = z.object({
  completed_tasks: z.array(completedTaskSchema),
  category_completion_counts: z.object({ user_account_quests: z.number().int(), social_quests: z.number().int() }),
  total_completed: z.number().int(),
  /** The category's 100-coin reward has been paid. */
  finished_user_account_quest: z.boolean(),
  finished_social_quest: z.boolean(),
});
export type CompletedTasks = z.infer<typeof completedTasksSchema>;

export const completedTaskParamsSchema = z.object({
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

/** Answer of GET /tasks/reward-user-account/ and /tasks/reward-social/ when the reward pays. */
export const categoryRewardSchema = z.object({
  detail: z.string(),
  code: messageCode,
  category,
  reward: z.number().int(),
});
export type CategoryReward = z.infer<typeof categoryRewardSchema>;

/** Answer of GET /referrals/add-reward/ (also 200 with reward 0 and code no_new_rewards). */
export const addReferralRewardSchema = z.object({
  detail: z.string(),
  code: messageCode,
  /** Coins paid by this call. */
  reward: z.number().int(),
  /** The "friends" numbers of the awards paid by this call. */
  awards: z.array(z.number().int()),
});
export type AddReferralReward = z.infer<typeof addReferralRewardSchema>;
