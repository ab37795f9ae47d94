// Sign-in methods and the proof that guards them (decisions §13): list the methods, remove one with
// proof (never the last), and /auth/reauth/ turning any one sign-in proof of the player into a
// single-use `reauth` string for the next change.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  methodParamsSchema,
  methodsSchema,
  othersSignedOutSchema,
  proofSchema,
  reauthRequestSchema,
  reauthResponseSchema,
} from '@shared/api/auth';
import { walletReauthText } from '@shared/wallet-texts';
import { refuse } from '../../lib/errors';
import { noticeAccount } from '../../services/account-notices';
import { issueReauth, passwordMatches, reauthRequired, requireProof } from '../../services/account-proof';
import { revokeActionTokens } from '../../services/action-tokens';
import { fetchGoogleProfile } from '../../services/google';
import { signOutOthers } from '../../services/sessions';
import { keepsAMethod, methodsOf, removalColumns } from '../../services/sign-in-methods';
import { checkTelegramProof, markTelegramHashUsed, telegramSettings } from '../../services/telegram-auth';
import { verifyWalletBody } from '../../services/wallet-proof';
import { markSignatureUsed, signatureReused } from '../../services/wallet-signature';
import { currentUser, SECURITY } from './common';
import { isoTimeOrNull } from '../../lib/iso-time';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/methods/',
    { onRequest: app.requireUser, schema: { tags: ['auth'], security: SECURITY, response: { 200: methodsSchema } } },
    async (request) => {
      const user = await currentUser(app.db, request);
      return {
        methods: methodsOf(user).map((m) => ({ kind: m.kind, label: m.label, added_at: isoTimeOrNull(m.addedAt) })),
      };
    },
  );

  app.delete(
    '/auth/methods/:kind/',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['auth'],
        security: SECURITY,
        params: methodParamsSchema,
        body: proofSchema.nullish(),
        response: { 200: othersSignedOutSchema },
      },
    },
    async (request, reply) => {
      const { kind } = request.params;
      const user = await currentUser(app.db, request);
      const columns = removalColumns(kind);
      if (!columns || !methodsOf(user).some((m) => m.kind === kind))
        throw refuse('method_not_found', 'Your account has no such sign-in method.');
      if (!keepsAMethod(user, kind))
        throw refuse('last_method', 'This is your only way to sign in. Add another method before you remove it.');
      await requireProof(app, request, user, request.body ?? {});
      const device = await app.db.transaction().execute(async (trx) => {
        // Read again under the row's lock: two removals at once each saw the other method still there.
        const fresh = await trx
          .selectFrom('users')
          .selectAll()
          .where('id', '=', user.id)
          .$if(app.dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirstOrThrow();
        if (!keepsAMethod(fresh, kind))
          throw refuse('last_method', 'This is your only way to sign in. Add another method before you remove it.');
        await trx.updateTable('users').set(columns).where('id', '=', user.id).execute();
        if (kind === 'password')
          await revokeActionTokens(trx, user.id, [
            'reset_password',
            'change_password',
            'change_email',
            'confirm_email',
          ]);
        return signOutOthers(trx, app.knownDevices, user.id, request.sessionId);
      });
      // A removed e-mail is no longer on the account: its notice goes to the address it had.
      const recipient = kind === 'password' && user.email ? { to: user.email, locale: user.locale } : undefined;
      noticeAccount(app, request, reply, user.id, { kind: 'method_removed', method: kind }, recipient);
      return { detail: 'The sign-in method has been removed. Every other session has ended.', device };
    },
  );

  app.post(
    '/auth/reauth/',
    {
      onRequest: app.requireUser,
      config: { signIn: true, answers: { 403: ['reauth_required'], 503: ['telegram_off'] } },
      schema: {
        tags: ['auth'],
        security: SECURITY,
        body: reauthRequestSchema,
        response: { 200: reauthResponseSchema },
      },
    },
    async (request) => {
      const user = await currentUser(app.db, request);
      const body = request.body;
      if ('password' in body) {
        if (!user.password_hash)
          throw reauthRequired('Your account has no password. Confirm with another sign-in method.');
        if (!(await passwordMatches(app, request, user, user.password_hash, body.password)))
          throw refuse('invalid_password', 'Wrong password');
      } else if ('signature' in body) {
        const { address, message } = await verifyWalletBody(app, body, request.ip, (ts) =>
          walletReauthText(app.config.appName, ts),
        );
        if (address !== user.wallet_address)
          throw refuse('wallet_mismatch', 'Sign with the wallet linked to your account.');
        if (!(await markSignatureUsed(app.db, address, message))) throw signatureReused();
      } else if ('access_token' in body) {
        const {
          googleClientId: clientId,
          googleUserinfoUrl: userinfoUrl,
          googleTokeninfoUrl: tokeninfoUrl,
        } = app.config;
        const profile = await fetchGoogleProfile({ clientId, userinfoUrl, tokeninfoUrl }, body.access_token);
        if (!user.google_sub || profile.sub !== user.google_sub)
          throw refuse('google_account_mismatch', 'Sign in with the Google account linked to your account.');
      } else {
        // Inside the Mini App its init data; on the web the Login Widget's fields.
        const identity = checkTelegramProof(telegramSettings(app), body);
        if (!user.telegram_id) throw refuse('telegram_not_linked', 'Your account has no Telegram linked.');
        if (identity.id !== user.telegram_id)
          throw refuse('telegram_account_mismatch', 'Open the app from the Telegram account linked to your account.');
        await markTelegramHashUsed(app.db, identity);
      }
      return issueReauth(app, user.id, 'password' in body ? (user.password_hash ?? undefined) : undefined);
    },
  );
};

export default routes;
