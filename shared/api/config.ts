import { z } from 'zod';

export const publicConfigSchema = z.object({
  app_name: z.string(),
  google_client_id: z.string().nullable(),
  /** True when the server can exchange a Google authorization code (GOOGLE_CLIENT_SECRET is set). */
  google_code_flow: z.boolean(),
  vapid_public_key: z.string(),
  mining_session_seconds: z.number().int(),
  payments_available: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
