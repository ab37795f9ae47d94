// Mining (decisions §6): every call needs a signed-in player. Split by concern.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import autoMiner from './auto-miner';
import boosts from './boosts';
import sessions from './sessions';
import shop from './shop';
import { requireUserOnEveryRoute } from '../../plugins/auth';

const routes: FastifyPluginAsyncZod = async (app) => {
  requireUserOnEveryRoute(app);
  await app.register(sessions);
  await app.register(boosts);
  await app.register(shop);
  await app.register(autoMiner);
};
export default routes;
