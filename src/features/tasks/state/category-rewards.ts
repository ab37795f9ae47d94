// The two category rewards (spec §4): when each counts as claimed and when it can be asked for.
import type { CompletedTasks } from '@shared/api/tasks';
import { ACCOUNT_QUEST_COUNT, SOCIAL_CATEGORY_MIN } from '@shared/constants';
import type { TaskCategory } from '@shared/task-messages';

type Answer = Pick<
  CompletedTasks,
  'category_completion_counts' | 'finished_user_account_quest' | 'finished_social_quest'
>;

/** What the category needs: all 3 account quests, 6 or more social quests. */
export const CATEGORY_TARGET: Record<TaskCategory, number> = {
  user_account_quests: ACCOUNT_QUEST_COUNT,
  social_quests: SOCIAL_CATEGORY_MIN,
};

export const categoryCount = (answer: Answer | null | undefined, category: TaskCategory) =>
  answer?.category_completion_counts[category] ?? 0;

const finished = (answer: Answer, category: TaskCategory) =>
  category === 'user_account_quests' ? answer.finished_user_account_quest : answer.finished_social_quest;

/**
 * Spec §4: the account reward counts as claimed when the count is 3 and the finished flag is set;
 * the social one when the count is 6 or more and the flag is set. An 'already claimed' answer
 * (`markedClaimed`) also marks it claimed.
 */
export function categoryClaimed(
  answer: Answer | null | undefined,
  category: TaskCategory,
  markedClaimed = false,
): boolean {
  if (markedClaimed) return true;
  if (!answer) return false;
  const count = categoryCount(answer, category);
  const enough = category === 'user_account_quests' ? count === ACCOUNT_QUEST_COUNT : count >= SOCIAL_CATEGORY_MIN;
  return enough && finished(answer, category);
}

/** Enough quests done for the reward (the server decides; this only enables the button). */
export const categoryReady = (answer: Answer | null | undefined, category: TaskCategory) =>
  categoryCount(answer, category) >= CATEGORY_TARGET[category];
