// Wallet sign-in and binding (spec §7, decisions §5 and §13): the player signs the spec's exact text
// with a millisecond timestamp; the server recovers the signer, checks freshness and accepts each
// signed message once (services/wallet-proof.ts). A wallet belongs to one account, and linking one
// needs proof of the account too.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addWalletRequestSchema, tokenPairSchema, walletBoundSchema, walletRequestSchema } from '@shared/api/auth';
import { walletBindText, walletLoginText } from '@shared/wallet-texts';
import { refuse } from '../../lib/errors';
import { noticeAccount } from '../../services/account-notices';
import { requireProof } from '../../services/account-proof';
import { startSession } from '../../services/sign-in';
import { takeSignup } from '../../services/signup-limit';
import { createUser, isUniqueViolation } from '../../services/users';
import { verifyWalletBody } from '../../services/wallet-proof';
import { markSignatureUsed, signatureReused } from '../../services/wallet-signature';
import { currentUser, retryOnUniqueViolation, SECURITY } from './common';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/login/',
    {
      config: { signIn: true },
      schema: { tags: ['auth'], body: walletRequestSchema, response: { 200: tokenPairSchema } },
    },
    async (request, reply) => {
      const { address, message } = await verifyWalletBody(app, request.body, request.ip, (ts) =>
        walletLoginText(app.config.appName, ts),
      );
      // Two first sign-ins of one wallet at once: the loser's retry finds the winner's account.
      return retryOnUniqueViolation(() =>
        app.db.transaction().execute(async (trx) => {
          if (!(await markSignatureUsed(trx, address, message))) throw signatureReused();
          const existing = await trx
            .selectFrom('users')
            .select('id')
            .where('wallet_address', '=', address)
            .executeTakeFirst();
          // A new wallet player is named after the wallet; the client then asks for a username.
          if (!existing) await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
          const userId = existing?.id ?? (await createUser(trx, { walletAddress: address, username: address })).id;
          return startSession(app, trx, Number(userId), request, reply);
        }),
      );
    },
  );

  app.post(
    '/auth/add-wallet/',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['auth'],
        security: SECURITY,
        body: addWalletRequestSchema,
        response: { 200: walletBoundSchema },
      },
    },
    async (request, reply) => {
      const user = await currentUser(app.db, request);
      if (user.wallet_address) throw refuse('wallet_already_set', 'Your account already has a wallet.');
      await requireProof(app, request, user, request.body);
      const { address, message } = await verifyWalletBody(app, request.body, request.ip, walletBindText);
      const inUse = () => refuse('wallet_in_use', 'This wallet is already linked to another account.');
      try {
        await app.db.transaction().execute(async (trx) => {
          if (!(await markSignatureUsed(trx, address, message))) throw signatureReused();
          const holder = await trx
            .selectFrom('users')
            .select('id')
            .where('wallet_address', '=', address)
            .executeTakeFirst();
          if (holder) throw inUse();
          const bound = await trx
            .updateTable('users')
            .set({ wallet_address: address, wallet_added_at: Date.now() })
            .where('id', '=', user.id)
            .where('wallet_address', 'is', null)
            .executeTakeFirst();
          if (Number(bound.numUpdatedRows) !== 1)
            throw refuse('wallet_already_set', 'Your account already has a wallet.');
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw inUse();
        throw err;
      }
      noticeAccount(app, request, reply, user.id, { kind: 'method_added', method: 'wallet' });
      return { detail: 'Wallet linked to your account.', wallet_address: address };
    },
  );
};
export default routes;
