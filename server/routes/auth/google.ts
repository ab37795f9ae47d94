// Google sign-in (decisions §5), token or code flow (spec §7): the Google account is found by its subject id, else linked to the
// account with the same (Google-verified) e-mail, else a new account is made with a free username.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { googleRequestSchema, googleResponseSchema } from '@shared/api/auth';
import { revokeActionTokens } from '../../services/action-tokens';
import { exchangeGoogleCode, fetchGoogleProfile, googleFailed } from '../../services/google';
import { issueTokenPair } from '../../services/refresh-tokens';
import { takeSignup } from '../../services/signup-limit';
import { createUser, findUserByEmail, generateUsername } from '../../services/users';
import { retryOnUniqueViolation } from './common';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/google/',
    { config: { signIn: true }, schema: { tags: ['auth'], body: googleRequestSchema, response: { 200: googleResponseSchema } } },
    async (request) => {
      const { googleClientId: clientId, googleUserinfoUrl: userinfoUrl, googleTokeninfoUrl: tokeninfoUrl } = app.config;
      const { body } = request;
      const accessToken =
        'access_token' in body
          ? body.access_token
          : await exchangeGoogleCode({ clientId, clientSecret: app.config.googleClientSecret, tokenUrl: app.config.googleTokenUrl }, body.code);
      const profile = await fetchGoogleProfile({ clientId, userinfoUrl, tokeninfoUrl }, accessToken);
      // Two sign-ins racing for one new account, or for one generated name, fail on a unique
      // column; the retry finds the account, or picks another name.
      return retryOnUniqueViolation(() =>
        app.db.transaction().execute(async (trx) => {
          let user = await trx.selectFrom('users').selectAll().where('google_sub', '=', profile.sub).executeTakeFirst();
          let action: 'registered' | 'logged_in' = 'logged_in';
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
                .set({ google_sub: profile.sub, email_confirmed: 1, ...(unproven ? { password_hash: null } : {}) })
                .where('id', '=', byEmail.id)
                .execute();
              if (unproven) await revokeActionTokens(trx, byEmail.id, ['confirm_registration']);
              user = { ...byEmail, google_sub: profile.sub };
            } else {
              await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
              const username = await generateUsername(trx, profile.email);
              user = await createUser(trx, { username, email: profile.email, emailConfirmed: true, googleSub: profile.sub });
              action = 'registered';
            }
          }
          const pair = await issueTokenPair(app, trx, user.id);
          return { ...pair, action, username: user.username ?? '' };
        }),
      4);
    },
  );
};
export default routes;
