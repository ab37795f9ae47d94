// One referral of the signed-in player (spec §7 GET referrals/{id}/); the list and the award claim
// live in lib/referrals.ts because the tasks page uses them too.
import type { Referral } from '@shared/api/referrals';
import type { CompletedTasks } from '@shared/api/tasks';
import { questByServerTitle } from '@shared/tasks';
import { api } from '@/lib/api-client';

export const fetchReferral = (id: string) => api<Referral>(`referrals/${encodeURIComponent(id)}/`);

/**
 * The "friends" numbers of the awards already paid (issue 24): an award is paid as its invite
 * quest, so the completed tasks list them.
 */
export async function fetchPaidAwards(): Promise<number[]> {
  const { completed_tasks: done } = await api<CompletedTasks>('tasks/completed/');
  return done.flatMap((task) => {
    const invites = questByServerTitle(task.task_title)?.invites;
    return invites === undefined ? [] : [invites];
  });
}
