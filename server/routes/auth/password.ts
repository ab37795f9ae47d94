// Passwords: reset by mailed link (forgotten password, no sign-in) and change by mailed link
// (signed in). Setting a password signs the account out everywhere: every refresh token is revoked,
// except that the device changing it (proved by its own live refresh token) gets a fresh pair, so
// it is not signed out by surprise when its access token runs out.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  confirmPasswordChangeRequestSchema,
  detailSchema,
  passwordChangedSchema,
  passwordResetConfirmRequestSchema,
  passwordResetDoneSchema,
  passwordResetRequestSchema,
} from '@shared/api/auth';
import { refuse } from '../../lib/errors';
import {
  type ActionKind,
  consumeActionToken,
  isLiveActionToken,
  issueActionToken,
  PASSWORD_KINDS,
  revokeActionTokens,
} from '../../services/action-tokens';
import { type HashClient, hashClientOf } from '../../services/hash-queue';
import { passwordChangeMail, passwordResetMail } from '../../services/mail-texts';
import { hashPassword } from '../../services/passwords';
import { localeOf } from '../../services/player-locale';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noticeAccount } from '../../services/account-notices';
import { refreshTokenOwner } from '../../services/refresh-tokens';
import { forgetDevices } from '../../services/known-devices';
import { endAllSessions } from '../../services/sessions';
import { type SignedIn, startSession } from '../../services/sign-in';
import {
  clearThrottle,
  loginLimits,
  mailLimits,
  passwordLinkLimits,
  signedIn,
  spendAttempt,
  takeAttempt,
} from '../../services/throttle';
import { findUserByEmail, findUserById } from '../../services/users';
import { currentUser, invalidLink, modalLink, SECURITY } from './common';

const routes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl, scryptLogN } = app.config;

  /** Applies a password link: one transaction, so a refused or raced link changes nothing. */
  async function setPasswordByLink(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: ActionKind,
    token: string,
    newPassword: string,
    who: HashClient,
    keepRefresh?: string,
  ): Promise<{ email: string | null; tokens: SignedIn | null; device: string }> {
    // Hashing is the expensive part; a dead link does not get that far, and one live link (or one
    // client) gets a few hashes, however many requests arrive at once.
    if (!(await isLiveActionToken(app.db, [kind], token))) throw invalidLink();
    const attempt = await takeAttempt(app.db, passwordLinkLimits(token, who.address));
    const passwordHash = await spendAttempt(app.db, attempt, () => hashPassword(newPassword, scryptLogN, who));
    const done = await app.db.transaction().execute(async (trx) => {
      const used = await consumeActionToken(trx, [kind], token);
      const user = used && (await findUserById(trx, used.userId));
      if (!used || !user) throw invalidLink();
      // Read before the revocation below: a token of another player (or a dead one) keeps nothing.
      const keepsDevice = keepRefresh ? (await refreshTokenOwner(trx, keepRefresh))?.userId === user.id : false;
      // The link came by mail, so whoever opened it also proved the address.
      await trx
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          password_added_at: user.password_hash ? user.password_added_at : Date.now(),
          email_confirmed: user.email ? 1 : user.email_confirmed,
        })
        .where('id', '=', user.id)
        .execute();
      // Every session ends (decisions §13) and every device string is forgotten; the device that
      // changed it gets a new session and string.
      await endAllSessions(trx, user.id);
      const owner = await forgetDevices(trx, user.id);
      // Registration links carry other passwords; the account is confirmed now. A reauth string
      // given for the old password (or any proof before this) confirms nothing any more.
      await revokeActionTokens(trx, user.id, [...PASSWORD_KINDS, 'confirm_registration', 'reauth']);
      const tokens = keepsDevice ? await startSession(app, trx, user.id, request, reply, { ownDevice: true }) : null;
      return {
        userId: user.id,
        email: user.email,
        tokens,
        // Whoever opened the mailed link proved the mailbox: their browser is the account's own.
        device: tokens?.device ?? app.knownDevices.issue(owner),
      };
    });
    noticeAccount(app, request, reply, done.userId, { kind: 'password_changed' });
    await signedIn(app.db, attempt);
    if (done.email) await clearThrottle(app.db, loginLimits('email', done.email, who.address)[0].key);
    return done;
  }

  app.post(
    '/auth/password-reset/',
    {
      config: { signIn: true },
      schema: { tags: ['auth'], body: passwordResetRequestSchema, response: { 200: detailSchema } },
    },
    async (request, reply) => {
      const { email } = request.body;
      // Counted for every address, known or not, so a 429 tells nothing about accounts.
      await takeAttempt(app.db, mailLimits(email, request.ip));
      // The language of the interface that asked: whoever forgot the password is reading it now.
      const locale = localeOf(request);
      // Whether the address has an account decides only what happens after the answer: looking it
      // up, issuing the link and mailing it all run once the reply is out, so known and unknown
      // addresses get the same answer after the same work, however slow the mail server is.
      app.afterReply(reply, 'password reset mail', async () => {
        const user = await findUserByEmail(app.db, email);
        if (!user) return;
        const token = await app.db.transaction().execute(async (trx) => {
          await revokeActionTokens(trx, user.id, ['reset_password']);
          return issueActionToken(trx, { userId: user.id, kind: 'reset_password' });
        });
        await app.mailer.sendLink({
          to: email,
          locale,
          ...passwordResetMail(app.config.appName)[locale],
          link: modalLink(appUrl, 'restorePassword', { token }),
        });
      });
      return { detail: 'If an account uses this address, we have sent it a link to reset the password.' };
    },
  );

  app.post(
    '/auth/password-reset-confirm/',
    {
      config: { signIn: true },
      schema: { tags: ['auth'], body: passwordResetConfirmRequestSchema, response: { 200: passwordResetDoneSchema } },
    },
    async (request, reply) => {
      const { email, device } = await setPasswordByLink(
        request,
        reply,
        'reset_password',
        request.body.token,
        request.body.new_password,
        hashClientOf(request),
      );
      // Whoever holds the link reads that mailbox: naming the address lets the login fill it in.
      return { detail: 'Your password has been reset. Sign in with the new password.', email: email ?? '', device };
    },
  );

  app.get(
    '/auth/change-password-request/',
    {
      onRequest: app.requireUser,
      config: { stateChanging: true },
      schema: { tags: ['auth'], security: SECURITY, response: { 200: detailSchema } },
    },
    async (request) => {
      const user = await currentUser(app.db, request);
      if (!user.email || !user.email_confirmed)
        throw refuse('no_email', 'Add and confirm an e-mail address first: the link is sent there.');
      await takeAttempt(app.db, mailLimits(user.email, request.ip));
      const token = await app.db.transaction().execute(async (trx) => {
        await revokeActionTokens(trx, user.id, ['change_password']);
        return issueActionToken(trx, { userId: user.id, kind: 'change_password' });
      });
      const locale = localeOf(request);
      await app.mailer.sendLink({
        to: user.email,
        locale,
        ...passwordChangeMail(app.config.appName)[locale],
        link: modalLink(appUrl, 'confirmPasswordChange', { token }),
      });
      return { detail: 'We have sent a link to change your password to your e-mail.' };
    },
  );

  app.post(
    '/auth/confirm-password-change/',
    {
      config: { signIn: true },
      schema: { tags: ['auth'], body: confirmPasswordChangeRequestSchema, response: { 200: passwordChangedSchema } },
    },
    async (request, reply) => {
      const { token, new_password, refresh } = request.body;
      const { tokens, device } = await setPasswordByLink(
        request,
        reply,
        'change_password',
        token,
        new_password,
        hashClientOf(request),
        refresh,
      );
      return { detail: 'Your password has been changed.', ...(tokens ?? { device }) };
    },
  );
};
export default routes;
