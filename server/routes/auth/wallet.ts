// Wallet sign-in and binding (spec §7, decisions §5): the player signs the spec's exact text with a
// millisecond timestamp; the server recovers the signer, checks freshness and accepts each signed
// message once. A wallet belongs to one account.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenPairSchema, walletBoundSchema, walletRequestSchema } from '@shared/api/auth';
import { walletBindText, walletLoginText } from '@shared/wallet-texts';
import { refuse } from '../../lib/errors';
import { issueTokenPair } from '../../services/refresh-tokens';
import { loginLimits, pruneThrottle, signedIn, takeAttempt } from '../../services/throttle';
import {
  checksumAddress,
  checkWalletSignature,
  isFreshTimestamp,
  markSignatureUsed,
  pruneUsedSignatures,
  signatureInvalid,
  signatureReused,
  signatureStale,
} from '../../services/wallet-signature';
import { takeSignup } from '../../services/signup-limit';
import { createUser, isUniqueViolation } from '../../services/users';
import { currentUser, retryOnUniqueViolation, SECURITY } from './common';

const routes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Verifies the body against `text(timestamp)`. Every check is counted as a sign-in attempt before
   * it runs (parallel forgeries cannot all be checked); a good signature clears the wallet's count.
   */
  async function verified(body: { address: string; signature: string; timestamp: number | string }, ip: string, text: (ts: number) => string) {
    const timestamp = Number(body.timestamp);
    // A stale timestamp (a wrong device clock) is refused before anything is counted, as before.
    if (!isFreshTimestamp(timestamp)) throw signatureStale();
    const attempt = await takeAttempt(app.db, loginLimits('wallet', checksumAddress(body.address), ip));
    const message = text(timestamp);
    const check = await checkWalletSignature({ address: body.address, signature: body.signature, timestamp, message });
    if (!check.ok) {
      await pruneThrottle(app.db);
      throw check.reason === 'stale' ? signatureStale() : signatureInvalid();
    }
    await signedIn(app.db, attempt);
    await pruneUsedSignatures(app.db);
    return { address: check.address, message };
  }

  app.post(
    '/auth/login/',
    { config: { signIn: true }, schema: { tags: ['auth'], body: walletRequestSchema, response: { 200: tokenPairSchema } } },
    async (request) => {
      const { address, message } = await verified(request.body, request.ip, (ts) => walletLoginText(app.config.appName, ts));
      // Two first sign-ins of one wallet at once: the loser's retry finds the winner's account.
      return retryOnUniqueViolation(() =>
        app.db.transaction().execute(async (trx) => {
          if (!(await markSignatureUsed(trx, address, message))) throw signatureReused();
          const existing = await trx.selectFrom('users').select('id').where('wallet_address', '=', address).executeTakeFirst();
          // A new wallet player is named after the wallet; the client then asks for a username.
          if (!existing) await takeSignup(trx, request.ip, app.config.signupLimitPerHour);
          const userId = existing?.id ?? (await createUser(trx, { walletAddress: address, username: address })).id;
          return issueTokenPair(app, trx, userId);
        }),
      );
    },
  );

  app.post(
    '/auth/add-wallet/',
    { onRequest: app.requireUser, schema: { tags: ['auth'], security: SECURITY, body: walletRequestSchema, response: { 200: walletBoundSchema } } },
    async (request) => {
      const user = await currentUser(app.db, request);
      const { address, message } = await verified(request.body, request.ip, walletBindText);
      const inUse = () => refuse('wallet_in_use', 'This wallet is already linked to another account.');
      try {
        await app.db.transaction().execute(async (trx) => {
          if (!(await markSignatureUsed(trx, address, message))) throw signatureReused();
          if (user.wallet_address === address) return;
          if (user.wallet_address) throw refuse('wallet_already_set', 'Your account already has a wallet.');
          const holder = await trx.selectFrom('users').select('id').where('wallet_address', '=', address).executeTakeFirst();
          if (holder) throw inUse();
          const bound = await trx.updateTable('users').set({ wallet_address: address }).where('id', '=', user.id).where('wallet_address', 'is', null).executeTakeFirst();
          if (Number(bound.numUpdatedRows) !== 1) throw refuse('wallet_already_set', 'Your account already has a wallet.');
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw inUse();
        throw err;
      }
      return { detail: 'Wallet linked to your account.', wallet_address: address };
    },
  );
};
export default routes;
