// The mining shop: temporary boosts for Gems. The Gems are taken and the boost granted in one
// transaction, so a refused payment grants nothing; the answer is kept in it too, so a retry after
// a crash gets the boost it bought instead of buying again.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { shopBuyRequestSchema, shopBuyResponseSchema, shopResponseSchema, type ShopItem } from '@shared/api/mining';
import { SHOP_PRICES_GEMS, TEMP_BOOST_HOURS, TEMP_BOOST_VALUE } from '@shared/constants';
import { transactionWithAnswer } from '../../plugins/idempotency';
import { post } from '../../services/ledger';
import { grantTempBoost, tempBoostJson } from '../../services/temp-boosts';

const SHOP_ITEMS: ShopItem[] = TEMP_BOOST_HOURS.map((hours) => ({
  id: `boost_${hours}h`,
  hours,
  duration_seconds: hours * 3600,
  value: TEMP_BOOST_VALUE,
  price_gems: SHOP_PRICES_GEMS[hours],
}));

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mining'];
  const security = [{ bearer: [] }];

  app.get(
    '/mining/shop/',
    { schema: { tags, security, summary: 'Temporary boosts for sale', response: { 200: shopResponseSchema } } },
    async () => ({ items: SHOP_ITEMS }),
  );

  app.post(
    '/mining/shop/buy/',
    {
      schema: {
        tags,
        security,
        summary: 'Buy a temporary boost with Gems (400 not_enough_gems)',
        body: shopBuyRequestSchema,
        response: { 200: shopBuyResponseSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const item = SHOP_ITEMS.find((i) => i.id === request.body.item_id)!;
      const now = Date.now();
      return transactionWithAnswer(app.db, request, async (trx) => {
        const boost = await grantTempBoost(trx, userId, item.hours, 'shop', now);
        await post(
          trx,
          {
            userId,
            currency: 'gems',
            amount: -item.price_gems,
            reason: 'shop_purchase',
            ref: `temp_boost:${boost.id}`,
          },
          now,
        );
        const user = await trx.selectFrom('users').select('gems').where('id', '=', userId).executeTakeFirstOrThrow();
        return { boost: tempBoostJson(boost, now), gems: Number(user.gems) };
      });
    },
  );
};
export default routes;
