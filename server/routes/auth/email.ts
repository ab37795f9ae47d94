// E-mail accounts: register → confirmation link → signed in; login by e-mail; adding an e-mail and
// password to a wallet or Google account (changing the e-mail is in email-change.ts). Every address
// is proven by a mailed link before the account uses it, and (decisions §13) a password becomes valid
// through a link only in the browser that typed it: the registration answers a `registration`
// string the browser sends back (X-Registration) when it opens the link.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  addEmailPasswordRequestSchema,
  detailSchema,
  emailConfirmedSchema,
  loginByEmailRequestSchema,
  registerRequestSchema,
  registerResponseSchema,
  tokenPairSchema,
  tokenParamsSchema,
} from '@shared/api/auth';
import { REGISTRATION_HEADER, REGISTRATION_HEADER_MAX } from '@shared/auth-headers';
import { notAuthenticated, refuse } from '../../lib/errors';
import { noticeAccount } from '../../services/account-notices';
import { passwordStillIs, requireProof } from '../../services/account-proof';
import { consumeActionToken, issueActionToken, revokeActionTokens } from '../../services/action-tokens';
import { hashClientOf } from '../../services/hash-queue';
import { addEmailMail, registrationAgainMail, registrationMail } from '../../services/mail-texts';
import { hashPassword, needsRehash, verifyAgainstNothing, verifyPassword } from '../../services/passwords';
import { localeOf } from '../../services/player-locale';
import { forgetDevices } from '../../services/known-devices';
import { claimAddress, pendingPasswordHash } from '../../services/registrations';
import { startSession } from '../../services/sign-in';
import { takeSignup } from '../../services/signup-limit';
import {
  deviceLoginLimits,
  loginLimits,
  mailLimits,
  pruneThrottle,
  signedIn,
  spendAttempt,
  takeAttempt,
} from '../../services/throttle';
import { createUser, findUserByEmail, findUserById, isUniqueViolation } from '../../services/users';
import { registerAttemptNotice } from './address-notices';
import {
  currentUser,
  emailInUse,
  invalidLink,
  modalLink,
  retryOnUniqueViolation,
  SECURITY,
  wrongAccount,
} from './common';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries the registration string whose digest the link's payload holds. */
function sentRegistration(header: string | string[] | undefined, expectedHex: string | undefined): boolean {
  if (typeof header !== 'string' || !expectedHex || header.length > 100 * REGISTRATION_HEADER_MAX) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  return header
    .split(',')
    .slice(0, REGISTRATION_HEADER_MAX)
    .some((one) => {
      const given = digest(one.trim());
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl, scryptLogN } = app.config;

  app.post(
    '/auth/register/',
    {
      config: { signIn: true },
      schema: { tags: ['auth'], body: registerRequestSchema, response: { 201: registerResponseSchema } },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      // A confirmed address is answered like a new one, after the same limits and hashing, and its
      // owner gets a notice instead of a link (issue 21): the answer and its time tell nothing.
      // Limits the mails one address receives, and the hashing work one client can cause.
      const attempt = await takeAttempt(app.db, mailLimits(email, request.ip));
      const passwordHash = await spendAttempt(app.db, attempt, () =>
        hashPassword(password, scryptLogN, hashClientOf(request)),
      );
      // Only this browser learns it: the link mailed to the address sets the password only with it.
      const registration = randomBytes(24).toString('base64url');

      // The mail and the account speak the language of the interface that registered (issue 24):
      // the confirmation mail goes out before any sign-in could record it.
      const locale = localeOf(request);
      const { token, repeated, holderLocale } = await retryOnUniqueViolation(() =>
        app.db.transaction().execute(async (trx) => {
          const existing = await findUserByEmail(trx, email);
          await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
          if (existing?.email_confirmed) return { token: null, repeated: true, holderLocale: existing.locale };
          // The password travels with its link and the account gets it only when that link is
          // opened with this browser's registration string: a stranger registering the address
          // again changes nothing, and the owner's own link keeps working.
          let user = existing;
          if (!user) user = await createUser(trx, { email, locale });
          else await trx.updateTable('users').set({ locale }).where('id', '=', user.id).execute();
          const payload = { password_hash: passwordHash, registration_hash: digest(registration).toString('hex') };
          const issued = await issueActionToken(trx, { userId: user.id, kind: 'confirm_registration', payload });
          return { token: issued, repeated: existing !== undefined, holderLocale: locale };
        }),
      );

      const { appName } = app.config;
      const link = token === null ? '' : modalLink(appUrl, 'confirmRegistration', { token });
      app.afterReply(reply, 'registration mail', () =>
        app.mailer.sendLink(
          token === null
            ? registerAttemptNotice(appName, appUrl, email, holderLocale)
            : {
                to: email,
                locale,
                ...(repeated ? registrationAgainMail(appName) : registrationMail(appName))[locale],
                link,
              },
        ),
      );
      // One answer for a new and a pending address, so the call tells nobody which is which.
      reply.status(201);
      return { detail: 'We have sent a confirmation link to your e-mail.', email, registration };
    },
  );

  app.get(
    '/auth/confirm-email/:token/',
    {
      config: { stateChanging: true, signIn: true, answers: { 401: ['token_not_valid'], 403: ['wrong_account'] } },
      schema: { tags: ['auth'], params: tokenParamsSchema, response: { 200: emailConfirmedSchema } },
    },
    async (request, reply) => {
      try {
        const { answer, added } = await app.db.transaction().execute(async (trx) => {
          const used = await consumeActionToken(trx, ['confirm_registration', 'confirm_email'], request.params.token);
          const user = used && (await findUserById(trx, used.userId));
          if (!used || !user) throw invalidLink();
          const now = Date.now();
          if (used.kind === 'confirm_registration') {
            // Once one link (or a password reset, or Google) has confirmed the account, the other
            // registration links are void: they carry other passwords.
            if (user.email_confirmed) throw invalidLink();
            const payload = (used.payload ?? {}) as { password_hash?: string; registration_hash?: string };
            // The typed password counts only in the browser that typed it: opened elsewhere (or a
            // stranger's registration opened by the owner), the address is proven but no password set.
            const proven =
              sentRegistration(request.headers[REGISTRATION_HEADER], payload.registration_hash) &&
              payload.password_hash;
            await trx
              .updateTable('users')
              .set({ email_confirmed: 1, password_hash: proven || null, password_added_at: proven ? now : null })
              .where('id', '=', user.id)
              .execute();
            await revokeActionTokens(trx, user.id, ['confirm_registration']);
            const session = await startSession(app, trx, user.id, request, reply);
            const passwordToken = proven
              ? undefined
              : await issueActionToken(trx, { userId: user.id, kind: 'change_password' });
            return {
              answer: {
                detail: 'Your e-mail address is confirmed.',
                ...session,
                password_set: Boolean(proven),
                ...(passwordToken ? { password_token: passwordToken } : {}),
              },
              added: false,
            };
          }
          // An address added to an account: only that account, signed in, may confirm it.
          // A token that has lapsed is a 401 the client renews and retries, not someone else's account.
          if (request.userId !== user.id) throw request.badToken ? notAuthenticated() : wrongAccount();
          const { email, password_hash } = used.payload as { email: string; password_hash: string };
          if (!(await claimAddress(trx, email, user.id, now))) throw emailInUse('email');
          await trx
            .updateTable('users')
            .set({ email, password_hash, email_confirmed: 1, password_added_at: now })
            .where('id', '=', user.id)
            .execute();
          // A password set forgets the device strings (services/known-devices.ts); this browser, the
          // account's own, gets one of the new generation.
          const device = app.knownDevices.issue(await forgetDevices(trx, user.id));
          return {
            answer: { detail: 'Your e-mail and password have been added.', password_set: true, device },
            added: true,
          };
        });
        if (added) noticeAccount(app, request, reply, request.userId!, { kind: 'method_added', method: 'password' });
        return answer;
      } catch (err) {
        // Another account took the address between the mail and the click.
        if (isUniqueViolation(err)) throw emailInUse('email');
        throw err;
      }
    },
  );

  app.post(
    '/auth/login-by-email/',
    {
      config: { signIn: true },
      schema: { tags: ['auth'], body: loginByEmailRequestSchema, response: { 200: tokenPairSchema } },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const user = await findUserByEmail(app.db, email);
      // The owner's browser, known to this account, has its own limit and queue lane (decisions §13).
      const device = user ? app.knownDevices.of(request, user) : null;
      // The attempt is counted before the password is checked, so parallel guesses cannot all be checked.
      const attempt = await takeAttempt(
        app.db,
        device ? deviceLoginLimits(device.id) : loginLimits('email', email, request.ip),
      );
      const stored = user && !user.email_confirmed ? await pendingPasswordHash(app.db, user) : user?.password_hash;
      const who = device
        ? { ...hashClientOf(request), address: `device:${device.id}`, knownDevice: true }
        : hashClientOf(request);
      const ok = await spendAttempt(app.db, attempt, () =>
        stored ? verifyPassword(password, stored, who) : verifyAgainstNothing(password, scryptLogN, who),
      );
      if (!user || !ok) {
        await pruneThrottle(app.db);
        throw refuse('invalid_credentials', 'No active account found with the given credentials');
      }
      await signedIn(app.db, attempt);
      if (!user.email_confirmed) {
        throw refuse(
          'email_not_confirmed',
          'Your e-mail address is not confirmed yet. Open the link we sent you, or register again to get a new one.',
        );
      }
      let checked = user.password_hash!;
      if (needsRehash(checked, scryptLogN)) {
        // An upgrade can wait for a quieter moment: a busy queue does not fail the sign-in.
        const upgraded = await hashPassword(password, scryptLogN, who).catch(() => null);
        if (upgraded) {
          const { numUpdatedRows } = await app.db
            .updateTable('users')
            .set({ password_hash: upgraded })
            .where('id', '=', user.id)
            .where('password_hash', '=', checked)
            .executeTakeFirst();
          if (Number(numUpdatedRows) > 0) checked = upgraded;
        }
      }
      return app.db.transaction().execute(async (trx) => {
        // A reset, change or removal of the password that committed while it was checked wins.
        if (!(await passwordStillIs(app, trx, user.id, checked)))
          throw refuse('invalid_credentials', 'No active account found with the given credentials');
        return startSession(app, trx, user.id, request, reply);
      });
    },
  );

  app.post(
    '/auth/add-email-password/',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['auth'],
        security: SECURITY,
        body: addEmailPasswordRequestSchema,
        response: { 200: detailSchema },
      },
    },
    async (request) => {
      const { email, password, reauth } = request.body;
      const user = await currentUser(app.db, request);
      if (user.email && (user.email !== email || user.password_hash)) {
        throw refuse(
          'email_already_set',
          'Your account already has an e-mail address. Change it in the profile instead.',
        );
      }
      // `password` is the new one: proof of the account is a reauth string (the account has no password).
      await requireProof(app, request, user, { reauth });
      const holder = await findUserByEmail(app.db, email);
      if (holder && holder.id !== user.id && holder.email_confirmed) throw emailInUse('email');
      const attempt = await takeAttempt(app.db, mailLimits(email, request.ip));
      // The address and password apply only when the link is opened, so an unproven address
      // never sits on the account.
      const passwordHash = await spendAttempt(app.db, attempt, () =>
        hashPassword(password, scryptLogN, hashClientOf(request)),
      );
      const token = await app.db.transaction().execute(async (trx) => {
        await revokeActionTokens(trx, user.id, ['confirm_email']);
        return issueActionToken(trx, {
          userId: user.id,
          kind: 'confirm_email',
          payload: { email, password_hash: passwordHash },
        });
      });
      const locale = localeOf(request);
      await app.mailer.sendLink({
        to: email,
        locale,
        ...addEmailMail(app.config.appName)[locale],
        link: modalLink(appUrl, 'confirmEmail', { token }),
      });
      return { detail: 'We have sent a confirmation link to your e-mail.' };
    },
  );
};
export default routes;
