// Changing the e-mail (decisions §12): the password when the account has one, a link to the new
// address, and once it is confirmed a notice to the old address whose link undoes the change for
// 72 hours. A stolen access token alone can no longer move the address (and with it the password
// reset); a change made with a stolen password can be taken back from the old mailbox.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeEmailRequestSchema,
  confirmEmailChangeQuerySchema,
  detailSchema,
  emailChangeConfirmedSchema,
  emailChangedSchema,
  tokenParamsSchema,
  undoEmailChangeRequestSchema,
} from '@shared/api/auth';
import { invalidField, notAuthenticated, refuse } from '../../lib/errors';
import { requireProof } from '../../services/account-proof';
import { consumeActionToken, issueActionToken, PASSWORD_KINDS, revokeActionTokens } from '../../services/action-tokens';
import { changeEmailMail, emailChangedMail } from '../../services/mail-texts';
import { localeFrom, localeOf } from '../../services/player-locale';
import { forgetDevices } from '../../services/known-devices';
import { claimAddress } from '../../services/registrations';
import { endAllSessions, signOutOthers } from '../../services/sessions';
import { mailLimits, takeAttempt } from '../../services/throttle';
import { findUserByEmail, findUserById, isUniqueViolation } from '../../services/users';
import { addressInUseNotice } from './address-notices';
import { currentUser, emailInUse, invalidLink, modalLink, SECURITY, wrongAccount } from './common';

/** What the undo link restores: the address and the sign-in methods as they were before the change. */
interface UndoPayload {
  old_email: string;
  new_email: string;
  password_hash: string | null;
  google_sub: string | null;
  /** Absent in undo links issued before wallets were restored too. */
  wallet_address?: string | null;
  /** Absent in undo links issued before Telegram was restored too. */
  telegram_id?: string | null;
  telegram_name?: string | null;
  changed_at: number;
}

/** The sign-in methods an undo puts back, each unique to one account. */
const RESTORED = ['google_sub', 'wallet_address', 'telegram_id'] as const;

const routes: FastifyPluginAsyncZod = async (app) => {
  const { appUrl } = app.config;

  app.post(
    '/auth/change-email/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['auth'], security: SECURITY, body: changeEmailRequestSchema, response: { 200: detailSchema } },
    },
    async (request) => {
      const { new_email } = request.body;
      const user = await currentUser(app.db, request);
      // decisions §13: the password, or a reauth string for accounts without one (counted like sign-ins).
      await requireProof(app, request, user, request.body);
      if (user.email === new_email)
        throw invalidField('new_email', 'This is already your e-mail address.', 'same_email');
      // An address in use is answered like a free one, after the same limit (issue 21): its holder
      // gets a notice instead of a link.
      await takeAttempt(app.db, mailLimits(new_email, request.ip));
      // An unconfirmed registration of the address never blocks its proven owner (decisions §13).
      const holder = await findUserByEmail(app.db, new_email);
      if (holder?.email_confirmed) {
        await app.mailer.sendLink(addressInUseNotice(app.config.appName, appUrl, new_email, holder.locale));
        return { detail: 'We have sent a confirmation link to your new e-mail.' };
      }
      const token = await app.db.transaction().execute(async (trx) => {
        await revokeActionTokens(trx, user.id, ['change_email']);
        return issueActionToken(trx, { userId: user.id, kind: 'change_email', payload: { email: new_email } });
      });
      const locale = localeOf(request);
      await app.mailer.sendLink({
        to: new_email,
        locale,
        ...changeEmailMail(app.config.appName)[locale],
        link: modalLink(appUrl, 'confirmEmailChange', { token, email: new_email }),
      });
      return { detail: 'We have sent a confirmation link to your new e-mail.' };
    },
  );

  app.get(
    '/auth/confirm-email-change/:token/',
    {
      config: { stateChanging: true, signIn: true, answers: { 401: ['token_not_valid'], 403: ['wrong_account'] } },
      schema: {
        tags: ['auth'],
        params: tokenParamsSchema,
        querystring: confirmEmailChangeQuerySchema,
        response: { 200: emailChangeConfirmedSchema },
      },
    },
    async (request, reply) => {
      const email = request.query.email;
      let changed: { device: string; undo: { to: string; token: string; locale: string } | null };
      try {
        changed = await app.db.transaction().execute(async (trx) => {
          const now = Date.now();
          const used = await consumeActionToken(trx, ['change_email'], request.params.token, now);
          if (!used || (used.payload as { email?: string } | null)?.email !== email) throw invalidLink();
          const user = await findUserById(trx, used.userId);
          if (!user) throw invalidLink();
          // Only the account that asked, signed in, moves its address (decisions §13): opened by
          // anyone else the link changes nothing (the transaction rolls back, the link stays usable).
          if (request.userId !== used.userId) throw request.badToken ? notAuthenticated() : wrongAccount();
          if (!(await claimAddress(trx, email, used.userId, now))) throw emailInUse('email');
          await trx.updateTable('users').set({ email, email_confirmed: 1 }).where('id', '=', used.userId).execute();
          // Password links went to the old address; every other session signs in again, this one goes on.
          await revokeActionTokens(trx, used.userId, PASSWORD_KINDS, now);
          const device = await signOutOthers(trx, app.knownDevices, used.userId, request.sessionId, now);
          if (!user.email || user.email === email) return { device, undo: null };
          const payload: UndoPayload = {
            old_email: user.email,
            new_email: email,
            password_hash: user.password_hash,
            google_sub: user.google_sub,
            wallet_address: user.wallet_address,
            telegram_id: user.telegram_id,
            telegram_name: user.telegram_name,
            changed_at: now,
          };
          const undo = {
            to: user.email,
            locale: user.locale,
            token: await issueActionToken(trx, { userId: user.id, kind: 'undo_email_change', payload }, now),
          };
          return { device, undo };
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw emailInUse('email');
        throw err;
      }
      const { device, undo } = changed;
      if (undo) {
        const { to, token } = undo;
        // The old address's owner may not be the one who moved it: the account's language, not the call's.
        const locale = localeFrom(undo.locale);
        app.afterReply(reply, 'e-mail change notice', () =>
          app.mailer.sendLink({
            to,
            locale,
            ...emailChangedMail(app.config.appName, to, email)[locale],
            link: modalLink(appUrl, 'undoEmailChange', { token }),
          }),
        );
      }
      return { detail: 'Your e-mail address has been changed.', email, device };
    },
  );

  app.post(
    '/auth/undo-email-change/',
    {
      config: { signIn: true },
      schema: { tags: ['auth'], body: undoEmailChangeRequestSchema, response: { 200: emailChangedSchema } },
    },
    async (request) => {
      try {
        const email = await app.db.transaction().execute(async (trx) => {
          const now = Date.now();
          const used = await consumeActionToken(trx, ['undo_email_change'], request.body.token, now);
          const user = used && (await findUserById(trx, used.userId));
          if (!used || !user) throw invalidLink();
          const undo = used.payload as UndoPayload;
          const holder = await findUserByEmail(trx, undo.old_email);
          if (holder && holder.id !== user.id) {
            // A confirmed holder proved the mailbox this link was sent to; only its owner can be that.
            if (holder.email_confirmed)
              throw refuse(
                'email_in_use',
                'Another account now uses your old e-mail address, so the change cannot be undone.',
              );
            // An unconfirmed registration of the freed address (perhaps made to block this undo)
            // was never proven: it loses the address and its links.
            await trx.updateTable('users').set({ email: null }).where('id', '=', holder.id).execute();
            await revokeActionTokens(trx, holder.id, ['confirm_registration'], now);
          }
          // The password, Google, wallet and Telegram as they were: whoever moved the address may have
          // reset the password, or linked their own Google account, wallet or Telegram, through it.
          // One the owner has since signed in with on an account of its own stays there (the owner
          // proved it; the undo must not fail for good on it): this account gets none.
          const restored: Partial<Record<(typeof RESTORED)[number], string | null>> = {};
          for (const column of RESTORED) {
            const value = undo[column];
            if (value === undefined) continue;
            const holder =
              value === null
                ? undefined
                : await trx
                    .selectFrom('users')
                    .select('id')
                    .where(column, '=', value)
                    .where('id', '!=', user.id)
                    .executeTakeFirst();
            restored[column] = holder ? null : value;
          }
          await trx
            .updateTable('users')
            .set({
              email: undo.old_email,
              email_confirmed: 1,
              password_hash: undo.password_hash,
              ...restored,
              ...(undo.telegram_id !== undefined
                ? { telegram_name: restored.telegram_id ? (undo.telegram_name ?? null) : null }
                : {}),
            })
            .where('id', '=', user.id)
            .execute();
          await endAllSessions(trx, user.id, now);
          await forgetDevices(trx, user.id);
          await revokeActionTokens(trx, user.id, ['change_email', 'confirm_email', 'reauth', ...PASSWORD_KINDS], now);
          // Undo links of later changes would move the address away again; earlier ones stay.
          await revokeActionTokens(trx, user.id, ['undo_email_change'], now, { issuedAfter: undo.changed_at });
          return undo.old_email;
        });
        return { detail: 'The e-mail change has been undone. Sign in again.', email };
      } catch (err) {
        if (isUniqueViolation(err))
          throw refuse(
            'email_in_use',
            'Another account now uses your old e-mail address, so the change cannot be undone.',
          );
        throw err;
      }
    },
  );
};
export default routes;
