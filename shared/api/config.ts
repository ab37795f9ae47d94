import { z } from 'zod';

export const publicConfigSchema = z.object({
  app_name: z.string(),
  google_client_id: z.string().nullable(),
  /** True when the server can exchange a Google authorization code (GOOGLE_CLIENT_SECRET is set). */
  google_code_flow: z.boolean(),
  vapid_public_key: z.string(),
  mining_session_seconds: z.number().int(),
  payments_available: z.boolean(),
  /** Telegram sign-in (Mini App, Login Widget) and the bot; null while the server has no bot (decisions §14). */
  telegram: z.object({ bot_username: z.string(), bot_id: z.number().int() }).nullable(),
  /** Follow quests the server checks instead of trusting the click (decisions §14). */
  verified_follows: z.object({ telegram_ru: z.boolean(), telegram_eng: z.boolean(), discord: z.boolean() }),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
