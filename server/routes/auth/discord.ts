// Connecting Discord (decisions §14) for the verified Discord follow: the OAuth2 authorization-code
// flow with a `state` that is this player's, single-use and short-lived (an action token), then
// the code exchanged for the player's token, which is kept sealed (services/discord.ts) for the
// guild member call. Adding Discord to an account needs §13's proof; the same Discord connected
// again (its token expired) changes no method and needs none. Off without the Discord settings.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { discordLinkRequestSchema, discordLinkResponseSchema, discordStartSchema } from '@shared/api/discord';
import { ApiError, refuse } from '../../lib/errors';
import type { Tx } from '../../db/schema';
import { noticeAccount } from '../../services/account-notices';
import { requireProof } from '../../services/account-proof';
import { consumeActionToken, hashToken, issueActionToken } from '../../services/action-tokens';
import {
  DiscordDown,
  discordAuthorizeUrl,
  exchangeDiscordCode,
  fetchDiscordUser,
  sealDiscordToken,
} from '../../services/discord';
import { isUniqueViolation } from '../../services/users';
import { currentUser, SECURITY } from './common';

const discordOff = () => refuse('discord_not_configured', 'Discord is not configured on this server.');
const stateInvalid = () =>
  refuse('discord_state_invalid', 'This Discord sign-in has expired or was already used. Connect Discord again.');
const inUse = () => refuse('discord_in_use', 'This Discord account is already linked to another account.');
const discordUnavailable = () =>
  new ApiError(503, 'discord_unavailable', 'Discord did not answer. Try again in a minute.', {
    retryAfterSeconds: 60,
  });

/** Whether `state` is a live Discord state of this player (read only: a refused proof leaves it usable). */
async function liveStateOf(db: Tx, userId: number, state: string): Promise<boolean> {
  const row = await db
    .selectFrom('action_tokens')
    .select('id')
    .where('token_hash', '=', hashToken(state))
    .where('kind', '=', 'discord_state')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', Date.now())
    .executeTakeFirst();
  return row !== undefined;
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/discord/start/',
    {
      onRequest: app.requireUser,
      config: { answers: { 400: ['discord_not_configured'] } },
      schema: { tags: ['auth'], security: SECURITY, response: { 200: discordStartSchema } },
    },
    async (request) => {
      const settings = app.config.discord;
      if (!settings) throw discordOff();
      const state = await issueActionToken(app.db, { userId: request.userId!, kind: 'discord_state' });
      return { url: discordAuthorizeUrl(settings, app.config.appUrl, state) };
    },
  );

  app.post(
    '/auth/discord/',
    {
      onRequest: app.requireUser,
      config: {
        answers: {
          400: [
            'discord_not_configured',
            'discord_state_invalid',
            'discord_code_invalid',
            'discord_scope_missing',
            'discord_in_use',
            'discord_already_set',
          ],
          503: ['discord_unavailable'],
        },
      },
      schema: {
        tags: ['auth'],
        security: SECURITY,
        body: discordLinkRequestSchema,
        response: { 200: discordLinkResponseSchema },
      },
    },
    async (request, reply) => {
      const settings = app.config.discord;
      if (!settings) throw discordOff();
      const { code, state } = request.body;
      const user = await currentUser(app.db, request);
      if (!(await liveStateOf(app.db, user.id, state))) throw stateInvalid();
      const adding = user.discord_id === null;
      // Before the code is spent: a 403 leaves code and state for the retry with `reauth`.
      if (adding) await requireProof(app, request, user, request.body);
      if ((await consumeActionToken(app.db, ['discord_state'], state))?.userId !== user.id) throw stateInvalid();

      let token, profile;
      try {
        token = await exchangeDiscordCode(settings, app.config.appUrl, code);
        profile = await fetchDiscordUser(settings, token.accessToken);
      } catch (err) {
        if (err instanceof DiscordDown) {
          app.log.warn({ why: err.why }, 'discord link failed');
          throw discordUnavailable();
        }
        throw err;
      }
      if (!adding && user.discord_id !== profile.id)
        throw refuse('discord_already_set', 'Your account already has another Discord account linked.');
      const taken = await app.db
        .selectFrom('users')
        .select('id')
        .where('discord_id', '=', profile.id)
        .where('id', '!=', user.id)
        .executeTakeFirst();
      if (taken) throw inUse();
      const now = Date.now();
      let changed;
      try {
        changed = await app.db
          .updateTable('users')
          .set({
            discord_id: profile.id,
            discord_name: profile.name,
            ...(adding ? { discord_added_at: now } : {}),
            discord_token: sealDiscordToken(settings, token.accessToken),
            discord_token_expires_at: token.expiresAt,
          })
          .where('id', '=', user.id)
          // Another call linked another Discord meanwhile: this one changes nothing.
          .where((eb) => eb.or([eb('discord_id', 'is', null), eb('discord_id', '=', profile.id)]))
          .executeTakeFirst();
      } catch (err) {
        if (isUniqueViolation(err)) throw inUse();
        throw err;
      }
      if (Number(changed.numUpdatedRows) === 0)
        throw refuse('discord_already_set', 'Your account already has another Discord account linked.');
      if (adding) {
        noticeAccount(app, request, reply, user.id, { kind: 'method_added', method: 'discord' });
        return { detail: 'Discord linked to your account.', action: 'linked' as const, name: profile.name };
      }
      return { detail: 'Discord connected again.', action: 'refreshed' as const, name: profile.name };
    },
  );
};
export default routes;
