// E-mail accounts: register → confirmation link → tokens; login by e-mail; adding an e-mail and
// password to a wallet account; changing the e-mail. Every address is proven by a mailed link
// before the account uses it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addEmailPasswordRequestSchema,
  changeEmailRequestSchema,
  confirmEmailChangeQuerySchema,
  detailSchema,
  emailChangedSchema,
  loginByEmailRequestSchema,
  registerRequestSchema,
  registerResponseSchema,
  tokenPairSchema,
  tokenParamsSchema,
} from '../../../shared/api/auth';
import { invalidField, refuse } from '../../lib/errors';
import { consumeActionToken, issueActionToken, PASSWORD_KINDS, revokeActionTokens } from '../../services/action-tokens';
import { hashClientOf } from '../../services/hash-queue';
import { hashPassword, needsRehash, verifyAgainstNothing, verifyPassword } from '../../services/passwords';
import { issueTokenPair } from '../../services/refresh-tokens';
import { giveBack, loginLimits, mailLimits, pruneThrottle, signedIn, takeAttempt } from '../../services/throttle';
import { takeSignup } from '../../services/signup-limit';
import { createUser, findUserByEmail, findUserById, isUniqueViolation } from '../../services/users';
import { currentUser, emailInUse, invalidLink, modalLink, retryOnUniqueViolation, SECURITY } from './common';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl, scryptLogN } = app.config;

  app.post(
    '/auth/register/',
    { config: { signIn: true }, schema: { tags: ['auth'], body: registerRequestSchema, response: { 200: registerResponseSchema, 201: registerResponseSchema } } },
    async (request, reply) => {
      const { email, password } = request.body;
      if ((await findUserByEmail(app.db, email))?.email_confirmed) throw emailInUse('email');
      // Limits the mails one address receives, and the hashing work one client can cause.
      await takeAttempt(app.db, mailLimits(email, request.ip));
      const passwordHash = await hashPassword(password, scryptLogN, hashClientOf(request));

      const { token, created } = await retryOnUniqueViolation(() =>
        app.db.transaction().execute(async (trx) => {
          const existing = await findUserByEmail(trx, email);
          if (existing?.email_confirmed) throw emailInUse('email');
          if (existing) {
            // Registered, never confirmed: this is "send again". The latest password wins and
            // only the newest link works.
            await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', existing.id).execute();
            await revokeActionTokens(trx, existing.id, ['confirm_registration']);
            return { token: await issueActionToken(trx, { userId: existing.id, kind: 'confirm_registration' }), created: false };
          }
          await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
          const user = await createUser(trx, { email, passwordHash });
          return { token: await issueActionToken(trx, { userId: user.id, kind: 'confirm_registration' }), created: true };
        }),
      );

      await app.mailer.sendLink({
        to: email,
        subject: `Confirm your registration in ${app.config.appName}`,
        intro: `Welcome to ${app.config.appName}! Confirm your e-mail address to finish the registration. The link works for 24 hours.`,
        action: 'Confirm e-mail',
        link: modalLink(appUrl, 'confirmRegistration', { token }),
      });
      reply.status(created ? 201 : 200);
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
            await trx.updateTable('users').set({ email_confirmed: 1 }).where('id', '=', user.id).execute();
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
      const who = hashClientOf(request);
      let ok: boolean;
      try {
        ok = user?.password_hash ? await verifyPassword(password, user.password_hash, who) : await verifyAgainstNothing(password, scryptLogN, who);
      } catch (err) {
        // Nothing was checked (the hash queue was full): the attempt is not spent.
        await giveBack(app.db, attempt);
        throw err;
      }
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
      await takeAttempt(app.db, mailLimits(email, request.ip));
      // The address and password apply only when the link is opened, so an unproven address
      // never sits on the account.
      const passwordHash = await hashPassword(password, scryptLogN, hashClientOf(request));
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

  app.post(
    '/auth/change-email/',
    { onRequest: app.requireUser, schema: { tags: ['auth'], security: SECURITY, body: changeEmailRequestSchema, response: { 200: detailSchema } } },
    async (request) => {
      const { new_email } = request.body;
      const user = await currentUser(app.db, request);
      if (user.email === new_email) throw invalidField('new_email', 'This is already your e-mail address.', 'same_email');
      if (await findUserByEmail(app.db, new_email)) throw emailInUse('new_email');
      await takeAttempt(app.db, mailLimits(new_email, request.ip));
      const token = await app.db.transaction().execute(async (trx) => {
        await revokeActionTokens(trx, user.id, ['change_email']);
        return issueActionToken(trx, { userId: user.id, kind: 'change_email', payload: { email: new_email } });
      });
      await app.mailer.sendLink({
        to: new_email,
        subject: `Confirm your new e-mail for ${app.config.appName}`,
        intro: 'Confirm this address to make it the e-mail of your account. The link works for 24 hours.',
        action: 'Confirm new e-mail',
        link: modalLink(appUrl, 'confirmEmailChange', { token, email: new_email }),
      });
      return { detail: 'We have sent a confirmation link to your new e-mail.' };
    },
  );

  app.get(
    '/auth/confirm-email-change/:token/',
    {
      config: { stateChanging: true, signIn: true },
      schema: { tags: ['auth'], params: tokenParamsSchema, querystring: confirmEmailChangeQuerySchema, response: { 200: emailChangedSchema } },
    },
    async (request) => {
      const email = request.query.email;
      try {
        await app.db.transaction().execute(async (trx) => {
          const used = await consumeActionToken(trx, ['change_email'], request.params.token);
          if (!used || (used.payload as { email?: string } | null)?.email !== email) throw invalidLink();
          const holder = await findUserByEmail(trx, email);
          if (holder && holder.id !== used.userId) throw emailInUse('email');
          await trx.updateTable('users').set({ email, email_confirmed: 1 }).where('id', '=', used.userId).execute();
          // Password links went to the old address.
          await revokeActionTokens(trx, used.userId, PASSWORD_KINDS);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw emailInUse('email');
        throw err;
      }
      return { detail: 'Your e-mail address has been changed.', email };
    },
  );
};
export default routes;
