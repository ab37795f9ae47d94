// The beta-test application (spec §3, §5; decisions §7).
import { z } from 'zod';
import { BETA_REQUIRED_KEYS } from '../tasks';
import { TASK_MESSAGE_CODES } from '../task-messages';

// Lengths bounded here so nothing huge reaches the handler; the format messages come from the
// handler, in Russian, as the client maps them (spec §8 'Telegram: …').
const field = z.string().trim().max(400);
export const betaApplicationRequestSchema = z.object({ telegram: field, discord: field, email: field, wallet: field });
export type BetaApplicationRequest = z.infer<typeof betaApplicationRequestSchema>;

const requiredKey = z.enum(BETA_REQUIRED_KEYS);

export const betaApplicationResponseSchema = z.object({
  detail: z.string(),
  code: z.enum(TASK_MESSAGE_CODES),
  application: z.object({
    telegram: z.string(),
    discord: z.string(),
    email: z.string(),
    wallet: z.string(),
    created_at: z.string(),
  }),
});
export type BetaApplicationResponse = z.infer<typeof betaApplicationResponseSchema>;

export const betaStatusSchema = z.object({
  /** All required tasks are done (an invite quest counts once its referral count is reached). */
  is_eligible: z.boolean(),
  /** The player is on the beta list: an application is on file (there is no separate approval). */
  has_access: z.boolean(),
  /** How many of the required tasks are done. */
  completed_tasks: z.number().int(),
  total_required_tasks: z.number().int(),
  /** Keys (shared/tasks.ts) of the required tasks not done yet. */
  missing_tasks: z.array(requiredKey),
  applied: z.boolean(),
});
export type BetaStatus = z.infer<typeof betaStatusSchema>;
