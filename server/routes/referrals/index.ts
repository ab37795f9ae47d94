// /referrals/*: the player's referral list and detail (list.ts).
import type { FastifyInstance } from 'fastify';
import list from './list';
import addReward from './add-reward';

export default async function referralRoutes(app: FastifyInstance) {
  await app.register(list);
  await app.register(addReward);
}
