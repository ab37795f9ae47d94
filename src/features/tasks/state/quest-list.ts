// The quests page's list (spec §3 task fields, §4): the local catalogue of shared/tasks.ts joined
// with the server's completed-tasks answer. The server reports titles in Russian; a local quest is
// completed when its own server title is among them (one local title ↔ one server title).
import type { CompletedTasks } from '@shared/api/tasks';
import { ACCOUNT_QUESTS, type QuestDef, SOCIAL_QUESTS, type SocialNetwork } from '@shared/tasks';

export interface QuestView {
  def: QuestDef;
  /** The server listed this quest's title as completed. */
  completed: boolean;
  /** Invite quests: referrals so far (capped at the target) and the target. */
  progress?: { count: number; target: number };
  /** Invite quests whose target is reached but whose reward is not paid yet. */
  claimable: boolean;
  /** Social follows: the channel to open. */
  network?: SocialNetwork;
  /** The server's id of the completed task (GET /tasks/completed/{id}/), once completed. */
  completedId?: number;
}

/** The server titles the answer reports as completed. */
export function completedTitles(answer: Pick<CompletedTasks, 'completed_tasks'> | null | undefined): Set<string> {
  return new Set((answer?.completed_tasks ?? []).map((t) => t.task_title));
}

export function questView(def: QuestDef, titles: ReadonlySet<string>, referralCount: number, ids?: ReadonlyMap<string, number>): QuestView {
  const completed = titles.has(def.serverTitle);
  const completedId = ids?.get(def.serverTitle);
  if (def.invites !== undefined) {
    const reached = referralCount >= def.invites;
    return {
      def,
      completed,
      progress: { count: Math.min(referralCount, def.invites), target: def.invites },
      claimable: reached && !completed,
      completedId,
    };
  }
  return { def, completed, claimable: false, network: def.network, completedId };
}

export interface QuestLists {
  account: QuestView[];
  social: QuestView[];
}

export function questLists(answer: Pick<CompletedTasks, 'completed_tasks'> | null | undefined, referralCount: number): QuestLists {
  const titles = completedTitles(answer);
  const ids = new Map((answer?.completed_tasks ?? []).map((t) => [t.task_title, t.id] as const));
  return {
    account: ACCOUNT_QUESTS.map((q) => questView(q, titles, referralCount, ids)),
    social: SOCIAL_QUESTS.map((q) => questView(q, titles, referralCount, ids)),
  };
}
