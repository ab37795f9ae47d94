// The player's inventory (decisions §9): unused temporary boosts grouped by duration, and any one
// of the player's boosts by id (404 for an id that is not theirs).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AssetGroup, assetDetailSchema, assetIdParamsSchema, assetListResponseSchema } from '@shared/api/assets';
import { notFound } from '../../lib/errors';
import { isoTime, isoTimeOrNull } from '../../lib/iso-time';
import { requireUserOnEveryRoute } from '../../plugins/auth';

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['assets'];
  const security = [{ bearer: [] }];
  requireUserOnEveryRoute(app);

  app.get(
    '/assets/list/',
    {
      schema: {
        tags,
        security,
        summary: 'Unused temporary boosts by duration',
        response: { 200: assetListResponseSchema },
      },
    },
    async (request) => {
      const rows = await app.db
        .selectFrom('temp_boosts')
        .select(['id', 'duration_seconds', 'value', 'state'])
        .where('user_id', '=', request.userId!)
        .where('state', 'in', ['owned', 'selected'])
        .orderBy('duration_seconds')
        .orderBy('id')
        .execute();
      const groups = new Map<string, AssetGroup>();
      for (const r of rows) {
        const key = `${r.duration_seconds}:${r.value}`;
        let g = groups.get(key);
        if (!g) {
          g = {
            asset_type: 'temporary_boost',
            duration_seconds: Number(r.duration_seconds),
            value: Number(r.value),
            quantity: 0,
            selected_quantity: 0,
            boost_ids: [],
          };
          groups.set(key, g);
        }
        g.quantity++;
        if (r.state === 'selected') g.selected_quantity++;
        g.boost_ids.push(Number(r.id));
      }
      return [...groups.values()];
    },
  );

  app.get(
    '/assets/detail/:id/',
    {
      schema: {
        tags,
        security,
        summary: "One of the player's temporary boosts",
        params: assetIdParamsSchema,
        response: { 200: assetDetailSchema },
      },
    },
    async (request) => {
      const b = await app.db
        .selectFrom('temp_boosts')
        .selectAll()
        .where('id', '=', request.params.id)
        .where('user_id', '=', request.userId!)
        .executeTakeFirst();
      if (!b) throw notFound();
      return {
        id: Number(b.id),
        asset_type: 'temporary_boost' as const,
        duration_seconds: Number(b.duration_seconds),
        value: Number(b.value),
        state: b.state,
        source: b.source,
        acquired_at: isoTime(b.created_at),
        session_id: b.session_id === null ? null : Number(b.session_id),
        starts_at: isoTimeOrNull(b.starts_at),
        ends_at: isoTimeOrNull(b.ends_at),
      };
    },
  );
};
export default routes;
