// Google sign-in (decisions §5), token or code flow (spec §7): the Google account is found by its
// subject id, else linked to the account with the same (Google-verified) e-mail, else a new account
// is made with a free username. Sent with a bearer token and proof (decisions §13), the call links
// the Google account to the signed-in player instead.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { googleRequestSchema, googleResponseSchema, type GoogleRequest } from '@shared/api/auth';
import { refuse } from '../../lib/errors';
import { noticeAccount } from '../../services/account-notices';
import { requireProof } from '../../services/account-proof';
import { revokeActionTokens } from '../../services/action-tokens';
import { exchangeGoogleCode, fetchGoogleProfile, googleFailed, type GoogleProfile } from '../../services/google';
import { startSession } from '../../services/sign-in';
import { takeSignup } from '../../services/signup-limit';
import { createUser, findUserByEmail, generateUsername, isUniqueViolation } from '../../services/users';
import { currentUser, OPTIONAL_BEARER, retryOnUniqueViolation } from './common';

const linkedSchema = z.object({ detail: z.string(), action: z.literal('linked') });

const routes: FastifyPluginAsyncZod = async (app) => {
  async function profileOf(body: GoogleRequest): Promise<GoogleProfile> {
    const { googleClientId: clientId, googleUserinfoUrl: userinfoUrl, googleTokeninfoUrl: tokeninfoUrl } = app.config;
    const accessToken =
      'access_token' in body
        ? body.access_token
        : await exchangeGoogleCode(
            { clientId, clientSecret: app.config.googleClientSecret, tokenUrl: app.config.googleTokenUrl },
            body.code,
          );
    return fetchGoogleProfile({ clientId, userinfoUrl, tokeninfoUrl }, accessToken);
  }

  app.post(
    '/auth/google/',
    {
      onRequest: app.refuseBadToken,
      config: { signIn: true },
      schema: {
        tags: ['auth'],
        security: OPTIONAL_BEARER,
        body: googleRequestSchema,
        response: { 200: z.union([googleResponseSchema, linkedSchema]) },
      },
    },
    async (request, reply) => {
      if (request.userId !== null) {
        // Linking: proof of the account first, then Google's word for the Google account.
        const user = await currentUser(app.db, request);
        if (user.google_sub) throw refuse('google_already_set', 'Your account already has a Google account linked.');
        await requireProof(app, request, user, request.body);
        const profile = await profileOf(request.body);
        const taken = await app.db
          .selectFrom('users')
          .select('id')
          .where('google_sub', '=', profile.sub)
          .executeTakeFirst();
        const inUse = () => refuse('google_in_use', 'This Google account is already linked to another account.');
        if (taken) throw inUse();
        try {
          await app.db
            .updateTable('users')
            .set({ google_sub: profile.sub, google_added_at: Date.now() })
            .where('id', '=', user.id)
            .where('google_sub', 'is', null)
            .execute();
        } catch (err) {
          if (isUniqueViolation(err)) throw inUse();
          throw err;
        }
        noticeAccount(app, request, reply, user.id, { kind: 'method_added', method: 'google' });
        return { detail: 'Google linked to your account.', action: 'linked' as const };
      }
      const profile = await profileOf(request.body);
      // Two sign-ins racing for one new account, or for one generated name, fail on a unique
      // column; the retry finds the account, or picks another name.
      const { answer, linkedTo } = await retryOnUniqueViolation(
        () =>
          app.db.transaction().execute(async (trx) => {
            let user = await trx
              .selectFrom('users')
              .selectAll()
              .where('google_sub', '=', profile.sub)
              .executeTakeFirst();
            let action: 'registered' | 'logged_in' = 'logged_in';
            let linked: number | null = null;
            if (!user) {
              const byEmail = await findUserByEmail(trx, profile.email);
              // The same Google account, committed by a racing sign-in after the first read above.
              if (byEmail?.google_sub === profile.sub) user = byEmail;
              else if (byEmail?.google_sub) throw googleFailed('google_account_mismatch');
              else if (byEmail) {
                // Google has verified the address. A registration that was never confirmed loses its
                // password: nobody proved it belongs to the owner of the mailbox.
                const unproven = !byEmail.email_confirmed;
                await trx
                  .updateTable('users')
                  .set({
                    google_sub: profile.sub,
                    google_added_at: Date.now(),
                    email_confirmed: 1,
                    ...(unproven ? { password_hash: null, password_added_at: null } : {}),
                  })
                  .where('id', '=', byEmail.id)
                  .execute();
                if (unproven) await revokeActionTokens(trx, byEmail.id, ['confirm_registration']);
                user = { ...byEmail, google_sub: profile.sub };
                linked = byEmail.id;
              } else {
                await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
                const username = await generateUsername(trx, profile.email);
                user = await createUser(trx, {
                  username,
                  email: profile.email,
                  emailConfirmed: true,
                  googleSub: profile.sub,
                });
                action = 'registered';
              }
            }
            const session = await startSession(app, trx, user.id, request, reply);
            return { answer: { ...session, action, username: user.username ?? '' }, linkedTo: linked };
          }),
        4,
      );
      if (linkedTo !== null) noticeAccount(app, request, reply, linkedTo, { kind: 'method_added', method: 'google' });
      return answer;
    },
  );
};
export default routes;
