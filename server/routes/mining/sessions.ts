// Starting, claiming and listing sessions. Start and claim change state through GET (as the spec's
// client calls them), so they are marked for the Idempotency-Key layer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { transactionWithAnswer } from '../../plugins/idempotency';
import {
  sessionsPageSchema,
  sessionsQuerySchema,
  miningSessionSchema,
  startMiningResponseSchema,
} from '@shared/api/mining';
import { API_BASE } from '@shared/constants';
import { refuse } from '../../lib/errors';
import { andThen } from '../../lib/now-or-later';
import {
  claimPlayerSession,
  listSessions,
  sessionBoostJson,
  sessionJson,
  startSession,
} from '../../services/mining-sessions';

const nothingToClaim = () => refuse('nothing_to_claim', 'There is no mining session to claim');

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mining'];
  const security = [{ bearer: [] }];

  app.get(
    '/mining/start/',
    {
      config: { stateChanging: true },
      schema: {
        tags,
        security,
        summary: 'Start a mining session (selected boosts are applied at its start)',
        response: { 200: startMiningResponseSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const now = Date.now();
      return transactionWithAnswer(app.db, request, async (trx) => {
        const started = await startSession(trx, userId, { now, sessionSeconds: app.config.miningSessionSeconds });
        if (!started) throw refuse('session_exists', 'A mining session is already running or waiting to be claimed');
        return {
          session: sessionJson(started.session, started.applied),
          applied_temporary_boosts: started.applied.map(sessionBoostJson),
        };
      });
    },
  );

  app.get(
    '/mining/claim/',
    {
      config: { stateChanging: true },
      schema: {
        tags,
        security,
        summary: 'Claim the finished session: pays its reward once',
        response: { 200: miningSessionSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const now = Date.now();
      const answer = await transactionWithAnswer(app.db, request, async (trx) => {
        // Null when there is nothing to claim, or a concurrent claim (or the Auto Miner) won the conditional update.
        const claimed = await claimPlayerSession(trx, userId, now);
        if (claimed === 'not_finished') throw refuse('session_not_finished', 'Mining session is not finished yet');
        if (!claimed) throw nothingToClaim();
        return sessionJson(claimed.session, claimed.boosts);
      });
      app.metrics.claims.inc({ source: 'player' });
      return answer;
    },
  );

  app.get(
    '/mining/sessions/',
    {
      schema: {
        tags,
        security,
        summary: "The player's sessions, newest first",
        description:
          'Paginated with `?page=` (from 1) and `?page_size=` (1–100, default 20). `next` and `previous` are API paths of the neighbouring pages, or null; a page past the end has empty `results`.',
        querystring: sessionsQuerySchema,
        response: { 200: sessionsPageSchema },
      },
    },
    // Not async: on SQLite the reads are answered without a promise (lib/now-or-later.ts).
    (request) => {
      const { page, page_size: pageSize } = request.query;
      return andThen(listSessions(app.db, request.userId!, page, pageSize), ({ count, sessions, boosts }) => {
        const pathOf = (p: number) => `${API_BASE}/mining/sessions/?page=${p}&page_size=${pageSize}`;
        const lastPage = Math.max(1, Math.ceil(count / pageSize));
        return {
          count,
          next: page < lastPage ? pathOf(page + 1) : null,
          previous: page > 1 ? pathOf(Math.min(page - 1, lastPage)) : null,
          results: sessions.map((s) => sessionJson(s, boosts.get(Number(s.id)) ?? [])),
        };
      });
    },
  );
};
export default routes;
