// Account housekeeping (decisions §13), at most once an hour per process (the statements are
// idempotent, so several processes doing it is harmless): registrations left unconfirmed for 7
// days lose their address, and sessions ended (or idle past their refresh tokens' life) 30 days ago
// are deleted with their refresh tokens; Telegram signatures past their 24 h no longer need their
// replay record.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { REFRESH_TOKEN_SECONDS } from '@shared/constants';
import type { Tx } from '../db/schema';
import { expirePendingRegistrations } from '../services/registrations';
import { deleteExpiredTelegramHashes } from '../services/telegram-auth';
import { onePassAtATime, runEveryInterval } from './every-interval';

const HOUR = 3600_000;
const KEEP_ENDED_MS = 30 * 24 * HOUR;

declare module 'fastify' {
  interface FastifyInstance {
    accountCleanup: {
      tick(now?: number): Promise<{ registrations: number; sessions: number; telegramHashes: number }>;
    };
  }
}

export async function deleteOldSessions(db: Tx, now = Date.now()): Promise<number> {
  const before = now - KEEP_ENDED_MS;
  const idleBefore = now - REFRESH_TOKEN_SECONDS * 1000 - KEEP_ENDED_MS;
  const old = db
    .selectFrom('sessions')
    .select('id')
    .where((eb) => eb.or([eb('ended_at', '<', before), eb('last_used_at', '<', idleBefore)]));
  await db.deleteFrom('refresh_tokens').where('session_id', 'in', old).execute();
  const deleted = await db.deleteFrom('sessions').where('id', 'in', old).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

export default fp(
  async function accountCleanup(app: FastifyInstance) {
    let last = 0;
    const tick = onePassAtATime(async (now) => {
      if (now - last < HOUR) return { registrations: 0, sessions: 0, telegramHashes: 0 };
      last = now;
      return {
        registrations: await expirePendingRegistrations(app.db, now),
        sessions: await deleteOldSessions(app.db, now),
        telegramHashes: await deleteExpiredTelegramHashes(app.db, now),
      };
    });
    app.decorate('accountCleanup', { tick });
    runEveryInterval(app, 'account cleanup', () => tick());
  },
  { name: 'account-cleanup', dependencies: ['config', 'db'] },
);
