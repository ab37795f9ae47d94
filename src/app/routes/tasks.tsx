// /tasks — the quests page (features/tasks).
import { TasksPage } from '@/features/tasks/components/tasks-page';

export default function TasksRoute() {
  return <TasksPage />;
}
