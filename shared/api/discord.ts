// Connecting Discord for the verified Discord follow (decisions §14): GET /auth/discord/start/ gives
// the consent page's address (with a single-use `state` of this player), Discord sends the player
// back to /auth/discord/callback?code&state, and the app posts both to POST /auth/discord/.
import { z } from 'zod';
import { proofFields } from './auth';

export const discordStartSchema = z.object({ url: z.string() });
export type DiscordStart = z.infer<typeof discordStartSchema>;

/** Proof (decisions §13) is needed when the account has no Discord yet; connecting the same one again needs none. */
export const discordLinkRequestSchema = z.object({
  code: z.string().min(1).max(512),
  state: z.string().min(1).max(200),
  ...proofFields,
});
export type DiscordLinkRequest = z.input<typeof discordLinkRequestSchema>;

/** `linked`: Discord added to the account; `refreshed`: the same Discord connected again. */
export const discordLinkResponseSchema = z.object({
  detail: z.string(),
  action: z.enum(['linked', 'refreshed']),
  name: z.string(),
});
export type DiscordLinkResponse = z.infer<typeof discordLinkResponseSchema>;
