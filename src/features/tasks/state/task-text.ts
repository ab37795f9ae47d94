// Server answers of the quest calls as the player reads them (spec §8 Tasks, Mining). The server
// sends the Russian text in `detail` with a stable `code` (decisions §7); shared/task-messages.ts
// gives the text in the player's language.
import type { Language } from '@shared/constants';
import { localizeTaskDetail, taskMessageByRu } from '@shared/task-messages';
import { type ApiFailure, fieldMessage } from '@/lib/api-errors';

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A successful task answer ({detail, code, category?}) in the player's language. */
export const taskAnswerText = (lang: Language, answer: { detail: string; code?: string; category?: string }) =>
  localizeTaskDetail(lang, answer.detail, answer.code, answer.category);

/** Spec §8 Tasks: the server's detail (or the error's message) in the player's language, else `fallback`. */
export function taskFailureText(lang: Language, failure: ApiFailure, fallback: string): string {
  if (!failure.fromServer) return fallback;
  return localizeTaskDetail(lang, failure.message, failure.code ?? undefined, str(failure.body?.category));
}

/** The category reward was paid before (spec §4: such an error also marks it claimed). */
export function isAlreadyClaimed(failure: ApiFailure): boolean {
  if (failure.code === 'category_already_claimed') return true;
  return !failure.code && taskMessageByRu(failure.message)?.code === 'category_already_claimed';
}

/** Codes of the task-boost refusals the client has its own words for (tasks:boost.errors.*). */
export const TASK_BOOST_CODES = ['task_not_completed', 'boost_already_received', 'unknown_task'] as const;
export type TaskBoostCode = (typeof TASK_BOOST_CODES)[number];
export const taskBoostCode = (failure: ApiFailure): TaskBoostCode | null =>
  (TASK_BOOST_CODES as readonly string[]).includes(failure.code ?? '') ? (failure.code as TaskBoostCode) : null;

/**
 * Spec §8 Mining, 'Failed to get task boost': the task_title field error, then detail, then
 * message, then the body as JSON, else the default.
 */
export function taskBoostFailureText(failure: ApiFailure, fallback: string): string {
  const field = fieldMessage(failure, 'task_title');
  if (field) return field;
  if (failure.fromServer) return failure.message;
  if (failure.body && Object.keys(failure.body).length > 0) return JSON.stringify(failure.body);
  return fallback;
}
