// Quests: account checks (at the API root, as the spec names them), social follows, completed
// tasks and category rewards.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import accountChecks from './account-checks';
import categoryRewards from './category-rewards';
import completed from './completed';
import social from './social';

const routes: FastifyPluginAsyncZod = async (app) => {
  await app.register(accountChecks);
  await app.register(social);
  await app.register(completed);
  await app.register(categoryRewards);
};
export default routes;
