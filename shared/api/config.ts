import { z } from 'zod';

export const publicConfigSchema = z.object({
  app_name: z.string(),
  google_client_id: z.string().nullable(),
  vapid_public_key: z.string(),
  mining_session_seconds: z.number().int(),
  payments_available: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
