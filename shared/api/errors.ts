// The API's one error shape (decisions §4), as the OpenAPI document describes every error answer:
// `{"detail", "code"}`, validation errors add `errors` (one entry per bad field). Some refusals carry
// more fields beside them (the beta application's `missing` tasks, say), so other keys may appear.
import { z } from 'zod';

export const fieldErrorSchema = z.object({
  field: z.string().meta({
    description:
      'The field, dotted for nested ones (`keys.auth`), or `body`/`query`/`params`/`headers` for the whole part',
  }),
  message: z.string(),
});

export const apiErrorSchema = z.looseObject({
  detail: z.string().meta({ description: 'What went wrong, for people' }),
  code: z
    .string()
    .meta({ description: 'What went wrong, for programs (`invalid`, `token_not_valid`, `rate_limited` …)' }),
  errors: z.array(fieldErrorSchema).optional().meta({ description: 'Validation errors: one entry per bad field' }),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** The header of every state-changing call (decisions §4, §12) and its rule. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX = 200;
