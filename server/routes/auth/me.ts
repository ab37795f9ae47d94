// The signed-in player's record (GET /auth/me) and the first-time account details
// (PATCH /auth/complete-registration/: username, and at the first choice the referrer from the link
// they arrived with).
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  completeRegistrationRequestSchema,
  completeRegistrationResponseSchema,
  meSchema,
  USERNAME_TAKEN,
} from '@shared/api/auth';
import { invalidField, notAuthenticated } from '../../lib/errors';
import { andThen } from '../../lib/now-or-later';
import { toTokenNumber } from '../../services/ledger';
import { meWithMiningFlag } from '../../services/mining-status';
import { REFERRAL_WINDOW_MS } from '../../services/referrals';
import { followInterfaceLanguage } from '../../services/player-locale';
import { noteSessionUsed } from '../../services/sessions';
import { isUniqueViolation, referralLink, usernameColumns, usernameTaken } from '../../services/users';
import { currentUser, SECURITY } from './common';

/** The `refCode` query parameter of the link a visitor arrived with, when it looks like one. */
function refCodeOf(link: string | null | undefined, appUrl: string): string | null {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link, appUrl);
  } catch {
    return null;
  }
  const code = url.searchParams.get('refCode');
  return code && /^[A-Za-z0-9_-]{1,64}$/.test(code) ? code : null;
}

const usernameTakenError = () => invalidField('username', USERNAME_TAKEN, 'username_taken');

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/me',
    {
      onRequest: app.requireUser,
      config: { sessionCheckedByRoute: true },
      schema: { tags: ['auth'], security: SECURITY, response: { 200: meSchema } },
    },
    // Not async: on SQLite the player is read and answered without a promise (lib/now-or-later.ts).
    (request) =>
      andThen(meWithMiningFlag.read(app.db, { userId: request.userId!, sessionId: request.sessionId! }), ([user]) =>
        answer(request, user),
      ),
  );

  /** One query for the player, the mining flag and the token's session: this call comes with every page. */
  function answer(request: FastifyRequest, user: Awaited<ReturnType<typeof meWithMiningFlag>>[number] | undefined) {
    if (!user || user.session_used_at === null) throw notAuthenticated();
    noteSessionUsed(app.db, request.sessionId!, user.session_used_at, (err) =>
      request.log.warn({ err }, 'could not note the session as used'),
    );
    const body = {
      username: user.username ?? '',
      email: user.email ?? '',
      wallet_address: user.wallet_address ?? '',
      balance: Number(user.balance),
      token: toTokenNumber(Number(user.token)),
      gems: Number(user.gems),
      referral_link: referralLink(app.config.appUrl, user.referral_code),
      password_set: user.password_hash !== null,
      mining: Number(user.mining) === 1, // 1 on SQLite, true on PostgreSQL
      ico: Number(user.ico) === 1,
      language: Number(user.language) === 1,
    };
    return andThen(followInterfaceLanguage(app.db, request, user), () => body);
  }

  app.patch(
    '/auth/complete-registration/',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['auth'],
        security: SECURITY,
        body: completeRegistrationRequestSchema,
        response: { 200: completeRegistrationResponseSchema },
      },
    },
    async (request) => {
      const user = await currentUser(app.db, request);
      const { username, referral_link } = request.body;
      const now = Date.now();

      // decisions §12: the referrer comes only with the first username choice, within 24 h of the
      // account's creation. The client sends its stored link with every rename, so anything else
      // (late, self, unknown, already referred) is ignored and the username is still saved.
      let referrerId: number | null = null;
      const code = refCodeOf(referral_link, app.config.appUrl);
      const mayRecord =
        user.username_chosen_at === null &&
        user.referrer_id === null &&
        now - Number(user.created_at) <= REFERRAL_WINDOW_MS;
      if (code && mayRecord) {
        const referrer = await app.db
          .selectFrom('users')
          .select('id')
          .where('referral_code', '=', code)
          .executeTakeFirst();
        if (referrer && referrer.id !== user.id) referrerId = referrer.id;
      }
      if (await usernameTaken(app.db, username, user.id)) throw usernameTakenError();

      try {
        const recorded = await app.db.transaction().execute(async (trx) => {
          // Marking the first choice is one conditional update: of two racing first choices only
          // one may record a referrer.
          const first = await trx
            .updateTable('users')
            .set({ username_chosen_at: now })
            .where('id', '=', user.id)
            .where('username_chosen_at', 'is', null)
            .executeTakeFirst();
          await trx.updateTable('users').set(usernameColumns(username)).where('id', '=', user.id).execute();
          if (referrerId === null || Number(first.numUpdatedRows) !== 1) return false;
          // Recorded once: a referrer already set is never replaced.
          const set = await trx
            .updateTable('users')
            .set({ referrer_id: referrerId })
            .where('id', '=', user.id)
            .where('referrer_id', 'is', null)
            .executeTakeFirst();
          return Number(set.numUpdatedRows) === 1;
        });
        return { detail: 'Account details saved.', username, referrer_recorded: recorded };
      } catch (err) {
        if (isUniqueViolation(err)) throw usernameTakenError();
        throw err;
      }
    },
  );
};
export default routes;
