// The quests page's list (spec §3 task fields, §4): the local catalogue of shared/tasks.ts joined
// with the server's completed-tasks answer. The server reports titles in Russian; a local quest is
// completed when its own server title is among them (one local title ↔ one server title).
import type { Me } from '@shared/api/auth';
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

export function questView(
  def: QuestDef,
  titles: ReadonlySet<string>,
  referralCount: number,
  ids?: ReadonlyMap<string, number>,
): QuestView {
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

/** The nine invite quests as one progress card (issue 16): they repeat the referrals table. */
export interface InviteSummary {
  count: number;
  /** The first invite quest not completed yet, null when all are. */
  next: QuestView | null;
  done: number;
  total: number;
  /** A reached invite quest waits for its reward. */
  claimable: boolean;
  views: QuestView[];
}

export interface QuestLists {
  account: QuestView[];
  /** Every social quest, the invite ones included. */
  social: QuestView[];
  /** The social quests shown as cards of their own: all but the invite ones. */
  socialCards: QuestView[];
  invites: InviteSummary;
  /** Every completed quest (each gives one task boost). */
  completed: QuestView[];
}

export function questLists(
  answer: Pick<CompletedTasks, 'completed_tasks'> | null | undefined,
  referralCount: number,
): QuestLists {
  const titles = completedTitles(answer);
  const ids = new Map((answer?.completed_tasks ?? []).map((t) => [t.task_title, t.id] as const));
  const account = ACCOUNT_QUESTS.map((q) => questView(q, titles, referralCount, ids));
  const socialAll = SOCIAL_QUESTS.map((q) => questView(q, titles, referralCount, ids));
  const views = socialAll.filter((v) => v.def.invites !== undefined);
  return {
    account,
    social: socialAll,
    socialCards: socialAll.filter((v) => v.def.invites === undefined),
    invites: {
      count: referralCount,
      next: views.find((v) => !v.completed) ?? null,
      done: views.filter((v) => v.completed).length,
      total: views.length,
      claimable: views.some((v) => v.claimable),
      views,
    },
    completed: [...account, ...socialAll].filter((v) => v.completed),
  };
}

/**
 * Account quests whose condition the player already meets but the server has not paid: checked
 * on page open, so nobody presses CHECK for what is already true (issue 16).
 */
export function metAccountQuests(
  user: Pick<Me, 'username' | 'wallet_address' | 'email' | 'password_set'> | null | undefined,
  titles: ReadonlySet<string>,
): string[] {
  if (!user) return [];
  const met: Record<string, boolean> = {
    add_nickname: Boolean(user.username),
    connect_wallet: Boolean(user.wallet_address),
    add_email_password: Boolean(user.email && user.password_set),
  };
  return ACCOUNT_QUESTS.filter((q) => met[q.key] && !titles.has(q.serverTitle)).map((q) => q.key);
}
