// The completed-task detail (spec §7 GET /tasks/completed/{id}/) with its own loading and error
// (spec §4); its failure text follows spec §8 Tasks: the server's detail, else 'Request failed'.
import type { CompletedTaskItem, CompletedTasks } from '@shared/api/tasks';
import { toApiFailure } from '@/lib/api-errors';
import { currentLanguage, i18n } from '@/lib/i18n';
import { listDetailStore } from '@/lib/list-detail-state';
import { taskFailureText } from './task-text';

const failureText = (err: unknown) => {
  const fallback = i18n.t('tasks:errors.requestFailed');
  return taskFailureText(currentLanguage(), toApiFailure(err, fallback), fallback);
};

export const completedTasksState = listDetailStore<CompletedTasks, CompletedTaskItem>({
  list: failureText,
  detail: failureText,
});
