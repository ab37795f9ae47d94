// GET /referrals/ and /referrals/{id}/: the players whose referrer is the signed-in player, newest
// first, each marked active once they count (services/referrals.ts). Another player's referral is
// "not found", the same as an id that does not exist.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { referralListSchema, referralParamsSchema, referralSchema } from '@shared/api/referrals';
import { notFound } from '../../lib/errors';
import { hasClaimedSession } from '../../services/referrals';
import { isoTime } from '../../lib/iso-time';

const SECURITY = [{ bearer: [] }];

const routes: FastifyPluginAsyncZod = async (app) => {
  const referrals = (referrerId: number) =>
    app.db
      .selectFrom('users')
      .select(['id', 'username', 'wallet_address', 'created_at', (eb) => hasClaimedSession(eb).as('active')])
      .where('referrer_id', '=', referrerId);

  const shape = (r: {
    id: number;
    username: string | null;
    wallet_address: string | null;
    created_at: number;
    active: unknown;
  }) => ({
    id: Number(r.id),
    username: r.username,
    wallet_address: r.wallet_address,
    joined_at: isoTime(r.created_at),
    active: Number(r.active) === 1, // 1 on SQLite, true on PostgreSQL
  });

  app.get(
    '/referrals/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['referrals'], security: SECURITY, response: { 200: referralListSchema } },
    },
    async (request) => {
      const rows = await referrals(request.userId!).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(shape);
    },
  );

  app.get(
    '/referrals/:id/',
    {
      onRequest: app.requireUser,
      schema: {
        tags: ['referrals'],
        security: SECURITY,
        params: referralParamsSchema,
        response: { 200: referralSchema },
      },
    },
    async (request) => {
      const row = await referrals(request.userId!).where('id', '=', Number(request.params.id)).executeTakeFirst();
      if (!row) throw notFound('User not found in your referral list', 'referral_not_found');
      return shape(row);
    },
  );
};
export default routes;
