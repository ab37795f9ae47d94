// Telegram sign-in (decisions §14): the Mini App's init data or the Login Widget's fields, checked
// locally with the bot token (services/telegram-auth.ts: no call to Telegram, so a Telegram that is
// down never holds a sign-in). The account is found by its Telegram id, else a new player is made
// like a new wallet player: no e-mail, no username yet (the client asks for one next). Sent with a
// bearer token and proof (decisions §13), the call links Telegram to the signed-in player instead.
// While the server has no bot the call answers 503 `telegram_off`.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { telegramRequestSchema, telegramResponseSchema } from '@shared/api/auth';
import { refuse } from '../../lib/errors';
import { noticeAccount } from '../../services/account-notices';
import { requireProof } from '../../services/account-proof';
import { startSession } from '../../services/sign-in';
import { takeSignup } from '../../services/signup-limit';
import { checkTelegramProof, markTelegramHashUsed, telegramSettings } from '../../services/telegram-auth';
import { createUser, isUniqueViolation } from '../../services/users';
import { currentUser, OPTIONAL_BEARER, retryOnUniqueViolation } from './common';

const linkedSchema = z.object({ detail: z.string(), action: z.literal('linked') });

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/telegram/',
    {
      onRequest: app.refuseBadToken,
      config: { signIn: true, answers: { 503: ['telegram_off'] } },
      schema: {
        tags: ['auth'],
        security: OPTIONAL_BEARER,
        body: telegramRequestSchema,
        response: { 200: z.union([telegramResponseSchema, linkedSchema]) },
      },
    },
    async (request, reply) => {
      const settings = telegramSettings(app);
      const body = request.body;
      const proof = 'init_data' in body ? { init_data: body.init_data } : { login: body.login };

      if (request.userId !== null) {
        const user = await currentUser(app.db, request);
        const alreadySet = () => refuse('telegram_already_set', 'Your account already has a Telegram account linked.');
        if (user.telegram_id) throw alreadySet();
        const identity = checkTelegramProof(settings, proof);
        // Proof before the signature is spent: the client asks for proof on a 403 and sends the same data again.
        await requireProof(app, request, user, body);
        const inUse = () => refuse('telegram_in_use', 'This Telegram account is already linked to another account.');
        try {
          await app.db.transaction().execute(async (trx) => {
            await markTelegramHashUsed(trx, identity);
            const holder = await trx
              .selectFrom('users')
              .select('id')
              .where('telegram_id', '=', identity.id)
              .executeTakeFirst();
            if (holder) throw inUse();
            const linked = await trx
              .updateTable('users')
              .set({ telegram_id: identity.id, telegram_name: identity.name, telegram_added_at: Date.now() })
              .where('id', '=', user.id)
              .where('telegram_id', 'is', null)
              .executeTakeFirst();
            if (Number(linked.numUpdatedRows) !== 1) throw alreadySet();
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw inUse();
          throw err;
        }
        noticeAccount(app, request, reply, user.id, { kind: 'method_added', method: 'telegram' });
        return { detail: 'Telegram linked to your account.', action: 'linked' as const };
      }

      const identity = checkTelegramProof(settings, proof);
      // Two first sign-ins of one Telegram account at once: the loser's retry finds the winner's account.
      return retryOnUniqueViolation(() =>
        app.db.transaction().execute(async (trx) => {
          await markTelegramHashUsed(trx, identity);
          let user = await trx
            .selectFrom('users')
            .select(['id', 'username', 'telegram_name'])
            .where('telegram_id', '=', identity.id)
            .executeTakeFirst();
          let action: 'registered' | 'logged_in' = 'logged_in';
          if (!user) {
            await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
            const created = await createUser(trx, {});
            await trx
              .updateTable('users')
              .set({ telegram_id: identity.id, telegram_name: identity.name, telegram_added_at: Date.now() })
              .where('id', '=', created.id)
              .execute();
            user = { id: created.id, username: null, telegram_name: identity.name };
            action = 'registered';
          } else if (user.telegram_name !== identity.name) {
            // The player renamed themselves in Telegram: the methods list shows the name they use now.
            await trx.updateTable('users').set({ telegram_name: identity.name }).where('id', '=', user.id).execute();
          }
          const session = await startSession(app, trx, Number(user.id), request, reply);
          return { ...session, action, username: user.username ?? '' };
        }),
      );
    },
  );
};
export default routes;
