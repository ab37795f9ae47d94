// E-mail accounts: register → confirmation link → tokens; login by e-mail; adding an e-mail and
// password to a wallet account (changing the e-mail is in email-change.ts). Every address is proven
// by a mailed link before the account uses it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addEmailPasswordRequestSchema,
  detailSchema,
  loginByEmailRequestSchema,
  registerRequestSchema,
  registerResponseSchema,
  tokenPairSchema,
  tokenParamsSchema,
} from '@shared/api/auth';
import { refuse } from '../../lib/errors';
import { consumeActionToken, issueActionToken, revokeActionTokens } from '../../services/action-tokens';
import { hashClientOf } from '../../services/hash-queue';
import { hashPassword, needsRehash, verifyAgainstNothing, verifyPassword } from '../../services/passwords';
import { issueTokenPair } from '../../services/refresh-tokens';
import { pendingPasswordHash } from '../../services/registrations';
import { takeSignup } from '../../services/signup-limit';
import { loginLimits, mailLimits, pruneThrottle, signedIn, spendAttempt, takeAttempt } from '../../services/throttle';
import { createUser, findUserByEmail, findUserById, isUniqueViolation } from '../../services/users';
import { registerAttemptNotice } from './address-notices';
import { currentUser, emailInUse, invalidLink, modalLink, retryOnUniqueViolation, SECURITY } from './common';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl, scryptLogN } = app.config;

  app.post(
    '/auth/register/',
    { config: { signIn: true }, schema: { tags: ['auth'], body: registerRequestSchema, response: { 201: registerResponseSchema } } },
    async (request, reply) => {
      const { email, password } = request.body;
      // A confirmed address is answered like a new one, after the same limits and hashing, and its
      // owner gets a notice instead of a link (issue 21): the answer and its time tell nothing.
      // Limits the mails one address receives, and the hashing work one client can cause.
      const attempt = await takeAttempt(app.db, mailLimits(email, request.ip));
      const passwordHash = await spendAttempt(app.db, attempt, () => hashPassword(password, scryptLogN, hashClientOf(request)));

      const { token, repeated } = await retryOnUniqueViolation(() =>
        app.db.transaction().execute(async (trx) => {
          const existing = await findUserByEmail(trx, email);
          await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
          if (existing?.email_confirmed) return { token: null, repeated: true };
          // The password travels with its link and the account gets it only when that link is
          // opened: a stranger registering the address again changes nothing, and the owner's own
          // link keeps working and keeps setting the owner's password.
          let user = existing;
          if (!user) user = await createUser(trx, { email });
          const issued = await issueActionToken(trx, { userId: user.id, kind: 'confirm_registration', payload: { password_hash: passwordHash } });
          return { token: issued, repeated: existing !== undefined };
        }),
      );

      const { appName } = app.config;
      const link = token === null ? '' : modalLink(appUrl, 'confirmRegistration', { token });
      app.afterReply(reply, 'registration mail', () =>
        app.mailer.sendLink(
          token === null
            ? registerAttemptNotice(appName, appUrl, email)
            : repeated
            ? {
                to: email,
                subject: `Confirm your registration in ${appName}`,
                intro: `Someone asked again to register this address in ${appName}. If it was you, this link finishes the registration with the password you just entered; it works for 24 hours. If it was not you, ignore this e-mail: nothing changes unless the link is opened.`,
                action: 'Confirm e-mail',
                link,
              }
            : {
                to: email,
                subject: `Confirm your registration in ${appName}`,
                intro: `Welcome to ${appName}! Confirm your e-mail address to finish the registration. The link works for 24 hours.`,
                action: 'Confirm e-mail',
                link,
              },
        ),
      );
      // One answer for a new and a pending address, so the call tells nobody which is which.
      reply.status(201);
      return { detail: 'We have sent a confirmation link to your e-mail.', email };
    },
  );

  app.get(
    '/auth/confirm-email/:token/',
    { config: { stateChanging: true, signIn: true }, schema: { tags: ['auth'], params: tokenParamsSchema, response: { 200: tokenPairSchema } } },
    async (request) => {
      try {
        return await app.db.transaction().execute(async (trx) => {
          const used = await consumeActionToken(trx, ['confirm_registration', 'confirm_email'], request.params.token);
          const user = used && (await findUserById(trx, used.userId));
          if (!used || !user) throw invalidLink();
          if (used.kind === 'confirm_registration') {
            // Once one link (or a password reset, or Google) has confirmed the account, the other
            // registration links are void: they carry other passwords.
            if (user.email_confirmed) throw invalidLink();
            // Links from before passwords travelled with them carry none; the account row has it.
            const passwordHash = (used.payload as { password_hash?: string } | null)?.password_hash;
            await trx.updateTable('users').set({ email_confirmed: 1, ...(passwordHash ? { password_hash: passwordHash } : {}) }).where('id', '=', user.id).execute();
            await revokeActionTokens(trx, user.id, ['confirm_registration']);
          } else {
            const { email, password_hash } = used.payload as { email: string; password_hash: string };
            const holder = await findUserByEmail(trx, email);
            if (holder && holder.id !== user.id) throw emailInUse('email');
            await trx.updateTable('users').set({ email, password_hash, email_confirmed: 1 }).where('id', '=', user.id).execute();
          }
          return issueTokenPair(app, trx, user.id);
        });
      } catch (err) {
        // Another account took the address between the mail and the click.
        if (isUniqueViolation(err)) throw emailInUse('email');
        throw err;
      }
    },
  );

  app.post(
    '/auth/login-by-email/',
    { config: { signIn: true }, schema: { tags: ['auth'], body: loginByEmailRequestSchema, response: { 200: tokenPairSchema } } },
    async (request) => {
      const { email, password } = request.body;
      // The attempt is counted before the password is checked, so parallel guesses cannot all be checked.
      const attempt = await takeAttempt(app.db, loginLimits('email', email, request.ip));
      const user = await findUserByEmail(app.db, email);
      const stored = user && !user.email_confirmed ? await pendingPasswordHash(app.db, user) : user?.password_hash;
      const who = hashClientOf(request);
      const ok = await spendAttempt(app.db, attempt, () => (stored ? verifyPassword(password, stored, who) : verifyAgainstNothing(password, scryptLogN, who)));
      if (!user || !ok) {
        await pruneThrottle(app.db);
        throw refuse('invalid_credentials', 'No active account found with the given credentials');
      }
      await signedIn(app.db, attempt);
      if (!user.email_confirmed) {
        throw refuse('email_not_confirmed', 'Your e-mail address is not confirmed yet. Open the link we sent you, or register again to get a new one.');
      }
      if (needsRehash(user.password_hash!, scryptLogN)) {
        // An upgrade can wait for a quieter moment: a busy queue does not fail the sign-in.
        const upgraded = await hashPassword(password, scryptLogN, who).catch(() => null);
        if (upgraded) await app.db.updateTable('users').set({ password_hash: upgraded }).where('id', '=', user.id).where('password_hash', '=', user.password_hash).execute();
      }
      return issueTokenPair(app, app.db, user.id);
    },
  );

  app.post(
    '/auth/add-email-password/',
    { onRequest: app.requireUser, schema: { tags: ['auth'], security: SECURITY, body: addEmailPasswordRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      const { email, password } = request.body;
      const user = await currentUser(app.db, request);
      if (user.email && (user.email !== email || user.password_hash)) {
        throw refuse('email_already_set', 'Your account already has an e-mail address. Change it in the profile instead.');
      }
      const holder = await findUserByEmail(app.db, email);
      if (holder && holder.id !== user.id) throw emailInUse('email');
      const attempt = await takeAttempt(app.db, mailLimits(email, request.ip));
      // The address and password apply only when the link is opened, so an unproven address
      // never sits on the account.
      const passwordHash = await spendAttempt(app.db, attempt, () => hashPassword(password, scryptLogN, hashClientOf(request)));
      const token = await app.db.transaction().execute(async (trx) => {
        await revokeActionTokens(trx, user.id, ['confirm_email']);
        return issueActionToken(trx, { userId: user.id, kind: 'confirm_email', payload: { email, password_hash: passwordHash } });
      });
      await app.mailer.sendLink({
        to: email,
        subject: `Confirm your e-mail for ${app.config.appName}`,
        intro: 'Confirm this e-mail address to add it and your password to your account. The link works for 24 hours.',
        action: 'Confirm e-mail',
        link: modalLink(appUrl, 'confirmEmail', { token }),
      });
      return { detail: 'We have sent a confirmation link to your e-mail.' };
    },
  );
};
export default routes;
